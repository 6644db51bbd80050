package answer_test

import (
	"bytes"
	"mime/multipart"
	"testing"
)

// formSpec is shaped as Stripe's description is: creates take form or
// multipart parameters that are not the resource (a file is made from
// file and purpose, and answered with an id, a size and a purpose), lists
// are {object, data, has_more, url} envelopes, and errors are the
// default answer.
const formSpec = `openapi: 3.0.0
info: {title: forms, version: "1"}
paths:
  /v1/customers:
    get:
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/CustomerList"}}}}
        default: {$ref: "#/components/responses/Error"}
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            encoding:
              metadata: {style: deepObject, explode: true}
            schema:
              type: object
              additionalProperties: false
              properties:
                name: {type: string, maxLength: 256}
                balance: {type: integer}
                metadata: {type: object, additionalProperties: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Customer"}}}}
        default: {$ref: "#/components/responses/Error"}
  /v1/customers/{customer}:
    get:
      parameters: [{name: customer, in: path, required: true, schema: {type: string, maxLength: 5000}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Customer"}}}}
        default: {$ref: "#/components/responses/Error"}
  /v1/files:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [object, data, has_more, url]
                properties:
                  object: {type: string, enum: [list]}
                  data: {type: array, items: {$ref: "#/components/schemas/File"}}
                  has_more: {type: boolean}
                  url: {type: string, pattern: "^/v1/files"}
        default: {$ref: "#/components/responses/Error"}
    post:
      requestBody:
        content:
          multipart/form-data:
            encoding:
              file_link_data: {style: deepObject, explode: true}
            schema:
              type: object
              additionalProperties: false
              required: [file, purpose]
              properties:
                file: {type: string, format: binary}
                purpose: {type: string, enum: [dispute_evidence, identity_document]}
                file_link_data:
                  type: object
                  required: [create]
                  properties:
                    create: {type: boolean}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/File"}}}}
        default: {$ref: "#/components/responses/Error"}
  /v1/files/{file}:
    get:
      parameters: [{name: file, in: path, required: true, schema: {type: string, maxLength: 5000}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/File"}}}}
        default: {$ref: "#/components/responses/Error"}
components:
  responses:
    Error:
      description: error
      content:
        application/json:
          schema:
            type: object
            required: [error]
            properties:
              error:
                type: object
                required: [type]
                properties:
                  message: {type: string}
                  type: {type: string, enum: [api_error, invalid_request_error]}
  schemas:
    Customer:
      type: object
      required: [id, object]
      properties:
        id: {type: string, maxLength: 5000}
        object: {type: string, enum: [customer]}
        name: {type: string, maxLength: 256, nullable: true}
        balance: {type: integer}
        metadata: {type: object, additionalProperties: {type: string}}
    CustomerList:
      type: object
      required: [object, data, has_more, url]
      properties:
        object: {type: string, enum: [list]}
        data: {type: array, items: {$ref: "#/components/schemas/Customer"}}
        has_more: {type: boolean}
        url: {type: string, maxLength: 5000, pattern: "^/v1/customers"}
    File:
      type: object
      additionalProperties: false
      required: [id, object, purpose, size]
      properties:
        id: {type: string, maxLength: 5000}
        object: {type: string, enum: [file]}
        purpose: {type: string, enum: [dispute_evidence, identity_document]}
        size: {type: integer, minimum: 0, maximum: 100}
`

// TestFormCreates: a POST to a collection is a create whatever its
// media type: a form body's fields, converted to their types, are kept
// and answered, the list holds what was made, and a read of an id never
// made gets the document's error answer.
func TestFormCreates(t *testing.T) {
	m := newMock(t, formSpec)
	form := []string{"Content-Type", "application/x-www-form-urlencoded"}
	ann := `{"balance":12,"id":"1","metadata":{"plan":"gold"},"name":"Ann","object":"customer"}`
	m.do("POST", "/v1/customers", "name=Ann&balance=12&metadata[plan]=gold", form...).want(t, 200, ann)
	m.do("GET", "/v1/customers/1", "").want(t, 200, ann)
	m.do("GET", "/v1/customers", "").want(t, 200, `{"data":[`+ann+`],"has_more":false,"object":"list","url":"/v1/customers"}`)
	m.do("GET", "/v1/customers/cus_never", "").want(t, 404, `{"error":{"message":"no resource with id \"cus_never\" in /v1/customers","type":"api_error"}}`)
}

// TestMultipartCreates: a multipart create is a create too; its file
// part, though named like the item's path parameter ({file}), is the
// content, not the identifier, and the list of the files made is
// answered though the create's parameters share no property with a file.
func TestMultipartCreates(t *testing.T) {
	m := newMock(t, formSpec)
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "evidence.txt")
	fw.Write([]byte("hello"))
	w.WriteField("purpose", "dispute_evidence")
	w.WriteField("file_link_data[create]", "true")
	w.Close()
	r := m.do("POST", "/v1/files", buf.String(), "Content-Type", w.FormDataContentType())
	if r.status != 200 {
		t.Fatalf("create = %d %s", r.status, r.body)
	}
	var size string
	if i := bytes.Index([]byte(r.body), []byte(`"size":`)); i >= 0 {
		size = r.body[i+len(`"size":`) : len(r.body)-1]
	}
	file := `{"id":"1","object":"file","purpose":"dispute_evidence","size":` + size + `}`
	r.want(t, 200, file)
	m.do("GET", "/v1/files/1", "").want(t, 200, file)
	m.do("GET", "/v1/files", "").want(t, 200, `{"data":[`+file+`],"has_more":false,"object":"list","url":"/v1/files"}`)
	m.do("GET", "/v1/files/hello", "").want(t, 404, `{"error":{"message":"no resource with id \"hello\" in /v1/files","type":"api_error"}}`)
}
