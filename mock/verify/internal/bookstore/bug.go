package bookstore

// A Bug is a way a Provider can break its document.
type Bug int

// The bugs: each is found only by a sequence of requests or by a
// request with the credentials of another scope.
const (
	None         Bug = iota // no bug: the provider keeps its document
	DeleteKeeps             // DELETE /genres/{genreId} answers 204 and keeps the genre
	PutKeeps                // a PUT of an existing genre answers the new one and keeps the old
	PatchRefused            // a valid PATCH of an existing genre is refused with 422
	BookRefused             // a book under a genre that exists is refused with 404
	AuthIgnored             // GET /genres answers without credentials
	ScopeIgnored            // PUT /genres/{genreId} takes a token without the write scope
)

// bugNames are the bugs' names, in the order of the constants.
var bugNames = [...]string{"none", "delete-keeps", "put-keeps", "patch-refused", "book-refused", "auth-ignored", "scope-ignored"}

// Bugs returns every bug, None aside, in order.
func Bugs() []Bug {
	out := make([]Bug, 0, len(bugNames)-1)
	for b := range bugNames[1:] {
		out = append(out, Bug(b+1))
	}
	return out
}

// String is the bug's name: "delete-keeps".
func (b Bug) String() string { return bugNames[b] }
