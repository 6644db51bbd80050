package openapi

import "fmt"

// Tag is a tag the document declares (its top-level tags), with what
// OpenAPI 3.2 adds: a summary, the tag it is nested under, and its kind
// (nav, badge, audience, or any other word).
type Tag struct {
	Name        string
	Summary     string
	Description string
	// Parent names the tag this one is nested under; "" for none, and
	// for a parent the loader left out as a mistake.
	Parent string
	Kind   string
}

// tags reads the document's tags (summary, parent and kind only in 3.2
// documents). A tag without a name is left out; a
// parent that names no tag, or one of a cycle of parents, is a mistake,
// and the tag is kept without its parent.
func (l *loader) tags() {
	list := l.root.get("tags")
	if list == nil || list.kind != arrayNode {
		return
	}
	index := map[string]int{}
	var ptrs []string
	var nodes []*node
	for i, n := range list.vals {
		ptr := child("/tags", fmt.Sprint(i))
		name := n.get("name").text()
		if !n.isObject() || name == "" {
			l.mistake("tag name", at(ptr, n), "the tag has no name: it is left out")
			continue
		}
		if _, dup := index[name]; dup {
			l.mistake("tag twice", at(ptr, n), fmt.Sprintf("tag %q is declared twice: the second is left out", name))
			continue
		}
		index[name] = len(l.doc.Tags)
		tag := Tag{Name: name, Description: n.get("description").text()}
		if l.doc.v32 {
			tag.Summary, tag.Parent, tag.Kind = n.get("summary").text(), n.get("parent").text(), n.get("kind").text()
		}
		l.doc.Tags = append(l.doc.Tags, tag)
		ptrs, nodes = append(ptrs, ptr), append(nodes, n)
	}
	tags := l.doc.Tags
	for i := range tags {
		if p := tags[i].Parent; p != "" {
			if _, ok := index[p]; !ok {
				l.mistake("tag parent", at(child(ptrs[i], "parent"), nodes[i].get("parent")), fmt.Sprintf("tag %q has parent %q, which is no tag of the document: it is read without a parent", tags[i].Name, p))
				tags[i].Parent = ""
			}
		}
	}
	// A tag whose parents lead back to it is in a cycle: each such tag
	// loses its parent, which breaks the cycle where it is first seen.
	for i := range tags {
		seen := map[int]bool{i: true}
		for j := i; tags[j].Parent != ""; {
			j = index[tags[j].Parent]
			if j == i {
				l.mistake("tag cycle", at(child(ptrs[i], "parent"), nodes[i].get("parent")), fmt.Sprintf("tag %q is its own ancestor through its parents: it is read without a parent", tags[i].Name))
				tags[i].Parent = ""
				break
			}
			if seen[j] {
				break // a cycle further up, which its own tags break
			}
			seen[j] = true
		}
	}
}
