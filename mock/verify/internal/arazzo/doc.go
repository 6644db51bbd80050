// Package arazzo reads Arazzo descriptions (versions 1.0 and 1.1 of the
// OpenAPI Initiative's Arazzo Specification) and runs their workflows:
// the steps in order, each step's parameters and request body made from
// runtime expressions, its success criteria judged, its success and
// failure actions (end, goto, retry) followed, its outputs and the
// workflow's kept for the steps and workflows after it.
//
// Parse reads a description and checks what can be checked without a
// service: the version, unique workflow and step identifiers, that each
// step names one operation or workflow, that each goto and dependsOn
// names a step or workflow there is, and the syntax of every runtime
// expression and criterion. Run runs workflows; sending a step's
// request is left to a Sender, so that the package knows nothing of how
// requests are written or answers judged.
//
// Runtime expressions (Arazzo's "Runtime Expressions" section, which
// follows OpenAPI's) are $url, $method, $statusCode, $request.header.N,
// $request.query.N, $request.path.N, $request.body#/pointer,
// $response.header.N, $response.body#/pointer, $inputs.N, $outputs.N,
// $steps.ID.outputs.N, $workflows.ID.inputs.N, $workflows.ID.outputs.N
// and $sourceDescriptions.NAME.url; a name may be followed by a JSON
// pointer (#/0/id). A string that is one expression has the type of the
// value it names; expressions between braces in a string ({$inputs.id})
// are written into it as text.
//
// Criteria are simple conditions (literals, runtime expressions, ==,
// !=, <, <=, >, >=, !, &&, ||, parentheses, [index] and .property),
// regular expressions (ECMA-262, as OpenAPI's pattern) matched against
// the context, and JSONPath queries (RFC 9535) that pass when they
// select at least one node. XPath is not evaluated: a criterion of that
// type is refused when the description is read.
package arazzo
