package media

import (
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

func TestEncodeXML(t *testing.T) {
	pet := func() *openapi.Schema {
		return object("Pet", prop("id", typed("integer")), prop("name", typed("string")), prop("tags", array("", typed("string"))))
	}
	attr := openapi.XML{Attribute: true}
	tests := []struct {
		name   string
		schema *openapi.Schema
		value  string
		want   string
	}{
		// Roots.
		{"component name", pet(), `{"id":1,"name":"Rex"}`, `<Pet><id>1</id><name>Rex</name></Pet>`},
		{"xml.name on the root", withXML(pet(), openapi.XML{Name: "animal"}), `{"id":1}`, `<animal><id>1</id></animal>`},
		{"no schema", nil, `{"b":true,"a":null}`, `<root><a/><b>true</b></root>`},
		{"no name", object(""), `{}`, `<root/>`},
		{"scalar root", typed("string"), `"hello"`, `<root>hello</root>`},
		{"null root", nil, `null`, `<root/>`},
		{"empty string", typed("string"), `""`, `<root></root>`},
		{"number as written", typed("number"), `1.50e3`, `<root>1.50e3</root>`},
		{"root array of components", array("Pets", pet()), `[{"id":1},{"id":2}]`, `<Pets><Pet><id>1</id></Pet><Pet><id>2</id></Pet></Pets>`},
		{"root array without names", nil, `[1,"a",null]`, `<root><item>1</item><item>a</item><item/></root>`},
		{"root array, items named", array("", withXML(typed("string"), openapi.XML{Name: "tag"})), `["a"]`, `<root><tag>a</tag></root>`},
		{"root array of arrays", nil, `[[1,2],[]]`, `<root><item><item>1</item><item>2</item></item><item/></root>`},
		{"empty root array", array("List", typed("string")), `[]`, `<List/>`},

		// Properties.
		{"declared order, then sorted", pet(), `{"zeta":1,"name":"Rex","alpha":2,"id":3}`, `<Pet><id>3</id><name>Rex</name><alpha>2</alpha><zeta>1</zeta></Pet>`},
		{"renamed property", object("P", prop("id", withXML(typed("integer"), openapi.XML{Name: "ID"}))), `{"id":7}`, `<P><ID>7</ID></P>`},
		{"null property", pet(), `{"name":null}`, `<Pet><name/></Pet>`},
		{"nested object", object("O", prop("owner", object("Person", prop("name", typed("string"))))), `{"owner":{"name":"Ann"}}`, `<O><owner><name>Ann</name></owner></O>`},
		{"boolean", nil, `{"ok":false}`, `<root><ok>false</ok></root>`},

		// Attributes.
		{"attribute", object("Pet", prop("id", withXML(typed("integer"), attr)), prop("name", typed("string"))), `{"id":1,"name":"Rex"}`, `<Pet id="1"><name>Rex</name></Pet>`},
		{"attribute only", object("Pet", prop("id", withXML(typed("integer"), attr))), `{"id":1}`, `<Pet id="1"/>`},
		{"renamed attribute", object("Pet", prop("id", withXML(typed("integer"), openapi.XML{Name: "key", Attribute: true}))), `{"id":1}`, `<Pet key="1"/>`},
		{"null attribute left out", object("Pet", prop("id", withXML(typed("integer"), attr))), `{"id":null}`, `<Pet/>`},
		{"object attribute as JSON", object("P", prop("m", withXML(typed("object"), attr))), `{"m":{"a":"x"}}`, `<P m="{&#34;a&#34;:&#34;x&#34;}"/>`},
		{"second attribute of a name left out", object("P", prop("a", withXML(typed("string"), openapi.XML{Name: "id", Attribute: true})), prop("b", withXML(typed("string"), openapi.XML{Name: "id", Attribute: true}))), `{"a":"1","b":"2"}`, `<P id="1"/>`},
		{"attributes equal once made names", object("P", prop("a b", withXML(typed("string"), attr)), prop("a_b", withXML(typed("string"), attr))), `{"a b":"1","a_b":"2"}`, `<P a_b="1"/>`},
		{"attribute named xmlns", object("P", prop("xmlns", withXML(typed("string"), attr))), `{"xmlns":"x"}`, `<P _xmlns="x"/>`},
		{"attribute xml:lang", object("P", prop("lang", withXML(typed("string"), openapi.XML{Prefix: "xml", Attribute: true}))), `{"lang":"en"}`, `<P xml:lang="en"/>`},
		{"attribute escaped", object("P", prop("q", withXML(typed("string"), attr))), `{"q":"a<b>\"c\"\n&'"}`, `<P q="a&lt;b&gt;&#34;c&#34;&#xA;&amp;&#39;"/>`},

		// Arrays, as the XML Object examples of OpenAPI write them.
		{"unwrapped", object("Z", prop("animals", array("", typed("string")))), `{"animals":["a","b"]}`, `<Z><animals>a</animals><animals>b</animals></Z>`},
		{"unwrapped, items named", object("Z", prop("animals", array("", withXML(typed("string"), openapi.XML{Name: "animal"})))), `{"animals":["a","b"]}`, `<Z><animal>a</animal><animal>b</animal></Z>`},
		{"unwrapped, array named has no effect", object("Z", prop("animals", withXML(array("", typed("string")), openapi.XML{Name: "aliens"}))), `{"animals":["a"]}`, `<Z><animals>a</animals></Z>`},
		{"wrapped", object("Z", prop("animals", withXML(array("", typed("string")), openapi.XML{Wrapped: true}))), `{"animals":["a","b"]}`, `<Z><animals><animals>a</animals><animals>b</animals></animals></Z>`},
		{"wrapped, items named", object("Z", prop("animals", withXML(array("", withXML(typed("string"), openapi.XML{Name: "animal"})), openapi.XML{Wrapped: true}))), `{"animals":["a"]}`, `<Z><animals><animal>a</animal></animals></Z>`},
		{"wrapped, both named", object("Z", prop("animals", withXML(array("", withXML(typed("string"), openapi.XML{Name: "animal"})), openapi.XML{Name: "aliens", Wrapped: true}))), `{"animals":["a"]}`, `<Z><aliens><animal>a</animal></aliens></Z>`},
		{"wrapped, array named", object("Z", prop("animals", withXML(array("", typed("string")), openapi.XML{Name: "aliens", Wrapped: true}))), `{"animals":["a"]}`, `<Z><aliens><animals>a</animals></aliens></Z>`},
		{"empty unwrapped", object("Z", prop("animals", array("", typed("string")))), `{"animals":[]}`, `<Z/>`},
		{"empty wrapped", object("Z", prop("animals", withXML(array("", typed("string")), openapi.XML{Wrapped: true}))), `{"animals":[]}`, `<Z><animals/></Z>`},
		{"array of components unwrapped", object("Shelter", prop("pets", array("", pet()))), `{"pets":[{"id":1},{"id":2}]}`, `<Shelter><pets><id>1</id></pets><pets><id>2</id></pets></Shelter>`},
		{"undeclared array", nil, `{"n":[1,[2,3]]}`, `<root><n>1</n><n><n>2</n><n>3</n></n></root>`},
		{"null item", nil, `{"n":[null,1]}`, `<root><n/><n>1</n></root>`},

		// Namespaces.
		{"prefixed namespace", withXML(pet(), openapi.XML{Namespace: "http://example.com/schema", Prefix: "smp"}), `{"id":1}`, `<smp:Pet xmlns:smp="http://example.com/schema"><id>1</id></smp:Pet>`},
		{"default namespace", withXML(pet(), openapi.XML{Namespace: "http://example.com/schema"}), `{"id":1}`, `<Pet xmlns="http://example.com/schema"><id>1</id></Pet>`},
		{"namespace declared once", withXML(object("A", prop("b", withXML(typed("string"), openapi.XML{Namespace: "urn:x", Prefix: "x"}))), openapi.XML{Namespace: "urn:x", Prefix: "x"}), `{"b":"1"}`, `<x:A xmlns:x="urn:x"><x:b>1</x:b></x:A>`},
		{"prefix rebound", withXML(object("A", prop("b", withXML(typed("string"), openapi.XML{Namespace: "urn:y", Prefix: "x"}))), openapi.XML{Namespace: "urn:x", Prefix: "x"}), `{"b":"1"}`, `<x:A xmlns:x="urn:x"><x:b xmlns:x="urn:y">1</x:b></x:A>`},
		{"prefix of an ancestor", withXML(object("A", prop("b", withXML(typed("string"), openapi.XML{Prefix: "x"}))), openapi.XML{Namespace: "urn:x", Prefix: "x"}), `{"b":"1"}`, `<x:A xmlns:x="urn:x"><x:b>1</x:b></x:A>`},
		{"undeclared prefix dropped", object("A", prop("b", withXML(typed("string"), openapi.XML{Prefix: "x"}))), `{"b":"1"}`, `<A><b>1</b></A>`},
		{"prefix xmlns dropped", withXML(object("A"), openapi.XML{Namespace: "urn:x", Prefix: "xmlns"}), `{}`, `<A xmlns="urn:x"/>`},
		{"prefix not a name dropped", withXML(object("A"), openapi.XML{Namespace: "urn:x", Prefix: "a:b"}), `{}`, `<A xmlns="urn:x"/>`},
		{"reserved namespace ignored", withXML(object("A"), openapi.XML{Namespace: "http://www.w3.org/2000/xmlns/", Prefix: "p"}), `{}`, `<A/>`},
		{"namespace escaped", withXML(object("A"), openapi.XML{Namespace: `urn:a&"b"`}), `{}`, `<A xmlns="urn:a&amp;&#34;b&#34;"/>`},
		{"attribute namespace", object("A", prop("id", withXML(typed("string"), openapi.XML{Namespace: "urn:i", Prefix: "i", Attribute: true}))), `{"id":"1"}`, `<A xmlns:i="urn:i" i:id="1"/>`},
		{"attribute without prefix has no namespace", object("A", prop("id", withXML(typed("string"), openapi.XML{Namespace: "urn:i", Attribute: true}))), `{"id":"1"}`, `<A id="1"/>`},
		{"attribute prefix taken by the element", withXML(object("A", prop("id", withXML(typed("string"), openapi.XML{Namespace: "urn:i", Prefix: "p", Attribute: true}))), openapi.XML{Namespace: "urn:a", Prefix: "p"}), `{"id":"1"}`, `<p:A xmlns:p="urn:a" id="1"/>`},
		{"two attributes, one name in one namespace", object("A",
			prop("a", withXML(typed("string"), openapi.XML{Name: "id", Namespace: "urn:i", Prefix: "p", Attribute: true})),
			prop("b", withXML(typed("string"), openapi.XML{Name: "id", Namespace: "urn:i", Prefix: "q", Attribute: true}))),
			`{"a":"1","b":"2"}`, `<A xmlns:p="urn:i" p:id="1"/>`},

		// Names and text.
		{"names made valid", nil, `{"1st":1,"a b":2,"":3,"x:y":4,"-":5,"é":6,"Ș":7}`, `<root><_>3</_><_->5</_-><_1st>1</_1st><a_b>2</a_b><x_y>4</x_y><é>6</é><_>7</_></root>`},
		{"text escaped", nil, `{"t":"<a href=\"x\">&amp;</a>\t\u0001"}`, `<root><t>&lt;a href=&#34;x&#34;&gt;&amp;amp;&lt;/a&gt;&#x9;` + "\uFFFD" + `</t></root>`},

		// Alternatives.
		{"oneOf alternative by properties", &openapi.Schema{AnyOf: []*openapi.Schema{object("Cat", prop("meow", typed("boolean"))), object("Dog", prop("bark", typed("boolean")))}}, `{"bark":true}`, `<Dog><bark>true</bark></Dog>`},
		{"oneOf alternative's attributes", &openapi.Schema{AnyOf: []*openapi.Schema{object("Cat", prop("id", withXML(typed("string"), attr)))}}, `{"id":"c"}`, `<Cat id="c"/>`},
		{"named schema with alternatives", &openapi.Schema{Name: "Animal", AnyOf: []*openapi.Schema{object("Cat", prop("meow", typed("boolean")))}}, `{"meow":true}`, `<Animal><meow>true</meow></Animal>`},
		{"alternative by type", object("P", prop("v", &openapi.Schema{AnyOf: []*openapi.Schema{withXML(typed("integer"), openapi.XML{Name: "n"}), withXML(typed("string"), openapi.XML{Name: "s"})}})), `{"v":"x"}`, `<P><s>x</s></P>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode("application/xml", value(t, tt.value), tt.schema)
			if err != nil {
				t.Fatal(err)
			}
			want := xmlDecl + tt.want + "\n"
			if string(got) != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			wellFormed(t, got)
		})
	}
}
