// Package shop is a second service that keeps its own document,
// shop.yaml, written apart from package planted's: a small shop whose
// orders hold nested objects (a customer and its address), an array of
// objects (the order's lines), an array of strings (its tags) and a
// oneOf (the payment), listed a page of three at a time by a cursor and
// filtered by a deepObject query, with formats it does not check (an
// email, a date-time: annotations, as JSON Schema has them) and a
// readOnly id it makes itself. Built without a bug it keeps the
// document; built with one, it breaks it in one way that package
// verify's tests must find.
package shop
