package verify

import (
	"context"

	"github.com/plantmock/plantmock/mock/internal/exercise"
)

// maxShrink bounds the requests sent to shrink one failure, besides the
// one that confirms the smallest: a failure costs at most maxShrink+1
// requests more than its check, and only the first check that shows it
// is shrunk.
const maxShrink = 12

// shrink looks for a smaller request than c's, the valid request of chk,
// that fails the same way: its first failure (not advice, and not a
// timeout or no answer, which say nothing of the request's size) that
// no check before showed. It takes, one step at a time, the first of
// c.Smaller() whose answer breaks the same rule at the same place (in
// the document), while maxShrink requests last, then sends the smallest
// found once more; where that fails the same way again, the failure
// shows it (Curl, Text) and keeps chk's own request in Unshrunk. It
// returns why the run must stop (the budget spent), chk unchanged then.
func (r *runner) shrink(ctx context.Context, c *exercise.Call, chk *Check) error {
	target := r.shrinkable(chk)
	if target == nil {
		return nil
	}
	op := c.Op
	judge := func(d *exercise.Call, s *sent) *Failure {
		var fs []*Failure
		if s.err != nil {
			fs = []*Failure{r.noAnswer(s)}
		} else {
			fs = append(r.judgePositive(d)(s), s.items...)
		}
		r.weigh(op, s, fs)
		for _, f := range fs {
			if f.Strength == Fail && f.Rule == target.Rule && f.Schema == target.Schema {
				return f
			}
		}
		return nil
	}
	tried := map[string]bool{chk.Curl: true}
	cur, left := c, maxShrink
	for left > 0 {
		var next *exercise.Call
		for _, d := range cur.Smaller() {
			if left == 0 {
				break
			}
			req, body, err := r.prepare(d)
			if err != nil || r.routed(req) != op {
				continue
			}
			line := curlHiding(req, body, r.secrets)
			if tried[line] {
				continue
			}
			tried[line] = true
			left--
			s, err := r.roundTrip(ctx, op, req, body)
			if err != nil {
				return err
			}
			if judge(d, s) != nil {
				next = d
				break
			}
		}
		if next == nil {
			break
		}
		cur = next
	}
	if cur == c {
		return nil
	}
	req, body, err := r.prepare(cur)
	if err != nil {
		return nil
	}
	s, err := r.roundTrip(ctx, op, req, body)
	if err != nil {
		return err
	}
	if f := judge(cur, s); f != nil {
		target.Text, target.Curl, target.Unshrunk = f.Text, curlHiding(req, body, r.secrets), chk.Curl
	}
	return nil
}

// shrinkable is the failure of chk to shrink: its first that is no
// advice, no timeout or missing answer, and not seen before.
func (r *runner) shrinkable(chk *Check) *Failure {
	for _, f := range chk.Failures {
		if f.Strength != Fail || f.Rule == "timeout" || f.Rule == "no answer" {
			continue
		}
		probe := *f
		probe.Operation = chk.Operation
		if _, seen := r.rep.seen[probe.key()]; seen {
			continue
		}
		return f
	}
	return nil
}
