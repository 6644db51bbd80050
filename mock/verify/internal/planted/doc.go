// Package planted is a small service that keeps the document of
// planted.yaml but for one contract bug, chosen when it is built: the
// provider that package verify's tests verify, and that command
// planted serves as a process for comparing verify with other contract
// testers on the same bugs.
package planted
