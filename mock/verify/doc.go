// Package verify tests a running service against its OpenAPI document:
// the provider's side of the contract that the mock keeps for consumers.
//
// Run sends each operation of the document valid requests (the
// document's examples, then generated values: only what is required,
// then every property and optional parameter, each declared request
// media type, the bounds of numeric parameters and properties, each
// anyOf and oneOf alternative, each enum value and each length bound;
// at most 32 of them) and
// judges every answer by the document: the status is declared, its
// Content-Type is one of the declared media types, the body satisfies
// the schema in the document's dialect (a stream's items, each as it
// arrives, the item schema: see Options.StreamItems), no writeOnly
// property is returned, required headers are present, no 5xx, and no answer slower
// than Options.Timeout. It then sends invalid requests, one per class of
// mistake (a missing required property or parameter, a wrong type, a
// value outside an enum, malformed JSON, an undeclared media type,
// missing and malformed credentials for each security scheme, a number,
// string or array out of range, a string breaking its pattern or its
// asserted format: these last sent only where the engine's validator
// finds that keyword alone broken); each must be refused with a 4xx, a
// declared one where the operation declares 400, 422, 4XX or default,
// in the declared error shape (a body in an undeclared media type that
// is taken is advice: no rule obliges a service to refuse it). Once
// for each path it sends a method the path does not declare, which
// must be refused with 405 and an Allow header. Last,
// for each collection whose items can be created and read, it creates
// one (its identifier from the answer's links, Location or body), reads
// it back and compares, finds it in the list, creates it again where the
// client chooses identifiers (which must be refused), replaces it and
// merges into it and reads it back after each, deletes it and reads it
// again, which must be refused with the declared not-found.
//
// With Options.Workflows, Run runs the workflows of an Arazzo
// description instead: each step's request made from the step's
// parameters and body, its answer judged by the document as any other,
// and a workflow whose success criteria are not met (or that cannot go
// on) a failure that names the workflow and the step, with the line of
// the description (Failure.Workflow, Failure.Step, Failure.File).
//
// With Options.Previous, the document's previous version, each failure
// is judged again, on the same request and answer, against the previous
// version's operation of the same method and path template: a failure
// the previous version would not see is new with this version
// (Introduced), one it would see already failing (Inherited), and
// Report.Previous counts them.
//
// A generated valid request that fails is shrunk: the smallest request
// that still fails the same way (optional parameters and properties
// left out, strings and arrays halved), found in at most 12 requests
// and confirmed by one more, is the failure's curl line.
//
// Requests are made with the engine the mock validates with (package
// exercise over the document model of package openapi), so that a request
// verify calls valid is one the mock accepts: verify run against the mock
// serving the same document finds nothing.
//
// From a test of a service of your own:
//
//	srv := httptest.NewServer(myHandler)
//	defer srv.Close()
//	rep, err := verify.Run(ctx, spec, srv.URL, verify.Options{})
//	if err != nil {
//		t.Fatal(err)
//	}
//	for _, f := range rep.Failures {
//		t.Error(f)
//	}
package verify
