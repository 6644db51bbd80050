package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"github.com/plantmock/plantmock/mock"
)

// askTimeout bounds a call to a running mock's admin API.
const askTimeout = 3 * time.Second

// An asker is a command that asks a running mock's admin API: the call
// it makes, and what it does with the answer (a 2xx, or the health
// call's 503).
type asker struct {
	path   string
	answer func(status int, body []byte, stdout, stderr io.Writer) int
}

var (
	health = asker{mock.AdminPrefix + "health", healthAnswer}
	report = asker{mock.AdminPrefix + "contract", reportAnswer}
)

// askAdmin defines the flags the commands that ask a running mock share
// (its address or admin address, its admin token) and returns what asks.
func askAdmin(fs *flag.FlagSet, a asker) runner {
	addr := fs.String("addr", "127.0.0.1:4010", "`host:port` of the mock (its --admin-addr if it has one)")
	adminAddr := fs.String("admin-addr", "", "the mock's --admin-addr, which wins over --addr")
	token := fs.String("admin-token", "", "the mock's admin `token`")
	return func(_ context.Context, _ given, _ environment, stdout, stderr io.Writer) int {
		name := fs.Name()
		target := *addr
		if *adminAddr != "" {
			target = *adminAddr
		}
		host, port, err := net.SplitHostPort(target)
		if err != nil {
			fmt.Fprintf(stderr, "%s: bad address %q: %v; run %s --help\n", name, target, err, name)
			return exitUsage
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "127.0.0.1"
		}
		target = net.JoinHostPort(host, port)
		req, err := http.NewRequest("GET", "http://"+target+a.path, nil)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return exitUsage
		}
		if *token != "" {
			req.Header.Set("Authorization", "Bearer "+*token)
		}
		resp, err := (&http.Client{Timeout: askTimeout}).Do(req)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s\n", name, unreachable(target, err))
			return exitError
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		if err != nil {
			fmt.Fprintf(stderr, "%s: the answer from %s broke off: %v\n", name, target, err)
			return exitError
		}
		if resp.StatusCode/100 != 2 && !(a.path == health.path && resp.StatusCode == http.StatusServiceUnavailable) {
			fmt.Fprintf(stderr, "%s: %s\n", name, refused(resp.StatusCode, body, *token != ""))
			return exitError
		}
		return a.answer(resp.StatusCode, body, stdout, stderr)
	}
}

// unreachable says in words why no mock answered at target.
func unreachable(target string, err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("nothing listens on %s: is the mock running there? (--addr or PLANTMOCK_ADDR says where)", target)
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Sprintf("%s did not answer within %s", target, askTimeout)
	}
	return fmt.Sprintf("no answer from %s: %v", target, err)
}

// refused says in words why the admin API did not answer the call;
// withToken says whether it was sent with an admin token.
func refused(status int, body []byte, withToken bool) string {
	var e struct{ Message string }
	json.Unmarshal(body, &e)
	switch {
	case status == http.StatusUnauthorized && withToken:
		return "the mock refused the admin token given (--admin-token or PLANTMOCK_ADMIN_TOKEN): it is not the one the mock has"
	case status == http.StatusUnauthorized:
		return "the mock wants its admin token: give it with --admin-token or PLANTMOCK_ADMIN_TOKEN"
	case status == http.StatusNotFound:
		return "the mock does not serve its admin API there: it runs with --admin=false, or with --admin-addr (give that address with --admin-addr)"
	case e.Message != "":
		return fmt.Sprintf("the mock answered %d: %s", status, e.Message)
	}
	return fmt.Sprintf("the mock answered %d %s", status, http.StatusText(status))
}

// healthAnswer reads the health call's answer: 0 when healthy.
func healthAnswer(status int, body []byte, stdout, stderr io.Writer) int {
	var h struct{ Status, Version, Spec, Reason string }
	if err := json.Unmarshal(body, &h); err != nil {
		fmt.Fprintf(stderr, "plantmock health: the answer is not the health call's: %v\n", err)
		return exitError
	}
	if status != http.StatusOK || h.Status != "ok" {
		why := h.Reason
		if why == "" {
			why = fmt.Sprintf("the mock says %q (the admin token shows why)", h.Status)
		}
		fmt.Fprintf(stderr, "plantmock health: unhealthy: %s\n", why)
		return exitError
	}
	if h.Spec == "" { // asked without the admin token of a mock that has one
		fmt.Fprintf(stdout, "plantmock health: ok\n")
		return exitOK
	}
	fmt.Fprintf(stdout, "plantmock health: ok, %s, plantmock %s\n", h.Spec, h.Version)
	return exitOK
}

// reportAnswer prints the contract report: 1 when an exchange broke the
// document.
func reportAnswer(_ int, body []byte, stdout, stderr io.Writer) int {
	var r mock.ContractReport
	if err := json.Unmarshal(body, &r); err != nil {
		fmt.Fprintf(stderr, "plantmock report: the answer is not a contract report: %v\n", err)
		return exitError
	}
	return printReport(&r, stdout)
}

// printReport prints a contract report and gives the exit code: 1 when
// an exchange broke the document.
func printReport(r *mock.ContractReport, stdout io.Writer) int {
	io.WriteString(stdout, r.Text())
	if !r.Clean("") {
		return exitError
	}
	return exitOK
}
