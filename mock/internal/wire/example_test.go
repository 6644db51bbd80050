package wire_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http/httptest"

	"github.com/plantmock/plantmock/internal/jsonx"
	"github.com/plantmock/plantmock/mock/internal/wire"
)

func ExampleParams_Decode() {
	integer := &wire.Shape{Types: wire.Integer}
	ps, err := wire.NewParams([]wire.Param{
		{Name: "plantId", In: "path", Shape: integer},
		{Name: "limit", In: "query", Shape: integer},
		{Name: "tags", In: "query", Explode: new(false), Shape: &wire.Shape{Types: wire.Array, Items: &wire.Shape{Types: wire.String}}},
		{Name: "filter", In: "query", Style: "deepObject", Shape: &wire.Shape{Types: wire.Object, Properties: map[string]*wire.Shape{"height": integer}}},
		{Name: "X-Request-Id", In: "header", Shape: &wire.Shape{Types: wire.String}},
		{Name: "page", In: "query", Shape: integer},
	})
	if err != nil {
		panic(err)
	}
	r := httptest.NewRequest("GET", "/plants/42?limit=ten&tags=fern,moss%2Clichen&filter[height]=30", nil)
	path := func(name string) (string, bool) { return "42", name == "plantId" }
	for _, v := range ps.Decode(nil, r, path) {
		switch {
		case v.Err != nil:
			fmt.Println("error:", v.Err)
		case !v.Present:
			fmt.Println("absent")
		default:
			fmt.Printf("%s\n", jsonx.Marshal(v.Value))
		}
	}
	// Output:
	// 42
	// "ten"
	// ["fern","moss,lichen"]
	// {"height":30}
	// absent
	// absent
}

func ExampleForm_DecodeMultipart() {
	form, err := wire.NewForm(&wire.Shape{Types: wire.Object, Properties: map[string]*wire.Shape{
		"name":  {Types: wire.String},
		"photo": {Types: wire.String},
	}}, map[string]wire.Encoding{"photo": {ContentType: "image/png, image/jpeg"}})
	if err != nil {
		panic(err)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("name", "Monstera")
	fw, _ := w.CreateFormFile("photo", "monstera.gif") // application/octet-stream
	fw.Write([]byte("GIF89a"))
	w.Close()

	_, err = form.DecodeMultipart(&body, w.FormDataContentType(), 1<<20)
	fmt.Println(err)
	// Output:
	// photo: part content type "application/octet-stream" is not "image/png, image/jpeg"
}
