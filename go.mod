module github.com/plantmock/plantmock

go 1.26.8

require (
	github.com/brianvoe/gofakeit/v6 v6.28.0
	github.com/pb33f/libopenapi v0.40.1
	github.com/pb33f/libopenapi-validator v0.13.8
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	go.yaml.in/yaml/v4 v4.0.0-rc.6
	golang.org/x/text v0.37.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/basgys/goxml2json v1.1.1-0.20231018121955-e66ee54ceaad // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/go-openapi/jsonpointer v0.23.1 // indirect
	github.com/go-openapi/swag/jsonname v0.26.0 // indirect
	github.com/pb33f/jsonpath v0.8.3 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	golang.org/x/net v0.50.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
)
