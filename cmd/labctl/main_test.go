package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func labctl(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// inOrder asserts that want appear as whole lines of out, in this order.
func inOrder(t *testing.T, out string, want ...string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	i := 0
	for _, l := range lines {
		if i < len(want) && l == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Fatalf("line %q not found in order in output:\n%s", want[i], out)
	}
}

func TestHandsOnLabPrintsTheSeedsLines(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "hands-on-lab")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	inOrder(t, out, "A 1 ok", "B 2 ok", "A late 1 reject", "final from B")
}

func TestHandsOnLabStaleToken3IsAccepted(t *testing.T) {
	out, errs, code := labctl(t, "", "run", "hands-on-lab", "--stale-token", "3")
	require.Equal(t, 0, code, errs)
	inOrder(t, out, "A 1 ok", "B 2 ok", "A late 3 ok", "final late A")
	assert.NotContains(t, out, "final from B", "the late write with token 3 should have won")
}

func TestFencedRegisterPrintsSeedOutput(t *testing.T) {
	out, _, code := labctl(t, "", "run", "fenced-register", "--format", "summary")
	if code != 0 {
		t.Fatal(code)
	}
	inOrder(t, out, "accepted", "accepted", "rejected stale token", "leader-b-committed")
}

func TestFencingOffLetsTheStaleWriteThrough(t *testing.T) {
	out, _, code := labctl(t, "", "run", "fenced-register", "--format", "summary", "--fencing", "off")
	assert.Equal(t, 1, code, "a stale write accepted is a broken invariant: exit 1")
	inOrder(t, out, "accepted", "accepted", "accepted", "leader-a-resumed")
	assert.Contains(t, out, "stale write accepted")
}

func TestPolicyVerdicts(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--ttl", "33s", "--renew", "10s", "--pause", "12s"}, 0, []string{"leaves renewal margin", "32 s < ttl 33 s (1 s to spare)"}},
		// Zero margin is no margin: the retry after a missed renewal
		// reaches the coordinator as the lease ends, and is refused.
		{[]string{"--ttl", "32s", "--renew", "10s", "--pause", "12s"}, 1, []string{"no renewal margin", "32 s = ttl 32 s (nothing to spare)", "arrives at the expiry is refused"}},
		{[]string{"--ttl", "30s", "--renew", "9s", "--pause", "12s"}, 1, []string{"no renewal margin", "30 s = ttl 30 s (nothing to spare)"}},
		// The seed's own example: 2 x 10 + 12 = 32 is more than 30, yet
		// a 12 s pause alone finds 20 s of lease: the rule fails for the
		// missed renewal it keeps room for, and the verdict says that.
		{[]string{"--ttl", "30s", "--renew", "10s", "--pause", "12s"}, 1, []string{"no renewal margin", "2 x 10 s + 12 s = 32 s > ttl 30 s", "short by 2 s", "finds ttl - renew = 20 s left and survives", "one lost renewal"}},
		{[]string{"--ttl", "12s", "--renew", "5s", "--pause", "9s"}, 1, []string{"no renewal margin", "2 x 5 s + 9 s = 19 s > ttl 12 s", "short by 7 s", "the pause alone can outlast the lease", "only ttl - renew = 7 s left"}},
		// A renewal later than two thirds of the TTL is no client the lab
		// runs: refused, not judged.
		{[]string{"--ttl", "12s", "--renew", "9s", "--pause", "1s"}, 2, nil},
	} {
		out, errs, code := labctl(t, "", append([]string{"policy"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s%s)", tc.args, code, tc.code, out, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q: %s", tc.args, w, out)
			}
		}
	}
}

func TestBadInputIsOneLineAndExit2(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"run"},
		{"run", "no-such-scenario"},
		{"run", "hands-on-lab", "--ttl", "ten"},
		{"run", "hands-on-lab", "--ttl", "0s"},
		{"run", "hands-on-lab", "--ttl", "-5s"},
		{"run", "hands-on-lab", "--ttl", "5s", "--renew", "5s"},
		{"run", "hands-on-lab", "--renew", "20s"},
		{"run", "hands-on-lab", "--format", "xml"},
		{"run", "hands-on-lab", "--fencing", "maybe"},
		{"run", "election", "--recipe", "paxos"},
		{"run", "election", "--token-source", "lease-id"},
		{"run", "scheduler", "--procs", "1000"},
		{"run", "shards", "--procs", "100000"},
		{"run", "hands-on-lab", "--actions", "/no/such/file"},
		{"policy", "--ttl", "0s", "--renew", "1s"},
		{"policy", "--ttl", "10s", "--renew", "10s"},
		{"policy", "--ttl", "10s", "--renew", "1s", "--pause", "-1s"},
	} {
		out, errs, code := labctl(t, "", args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (out %q)", args, code, out)
		}
		if len(args) > 0 && strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: error is not one line: %q", args, errs)
		}
		if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: %s", args, errs)
		}
	}
}

func TestMalformedActionsAreRejected(t *testing.T) {
	for _, in := range []string{`{`, `[{"at":"1s","do":"dance"}]`, `[{"at":"-1s","do":"crash","proc":"A"}]`, `[{"at":"1s","do":"pause","proc":"A"}]`, `[{"at":"soon","do":"crash","proc":"A"}]`} {
		_, errs, code := labctl(t, in, "run", "hands-on-lab", "--actions", "-")
		if code != 2 || errs == "" {
			t.Errorf("%s: exit %d, stderr %q", in, code, errs)
		}
	}
}

func TestActionsFromStdinChangeTheRun(t *testing.T) {
	// Crash B before A's lease runs out: nobody is left to take over.
	out, errs, code := labctl(t, `[{"at":"5s","do":"crash","proc":"B"}]`, "run", "hands-on-lab", "--actions", "-", "--format", "summary")
	if code != 0 {
		t.Fatal(errs)
	}
	inOrder(t, out, "A 1 ok", "A late 1 ok", "final late A")
}

func TestUnknownProcessInActionIsReportedNotFatal(t *testing.T) {
	out, _, code := labctl(t, `[{"at":"5s","do":"crash","proc":"Z"}]`, "run", "hands-on-lab", "--actions", "-", "--format", "summary")
	if code != 0 || !strings.Contains(out, `no process or worker named "Z"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestEveryScenarioRunsInEveryFormat(t *testing.T) {
	help, _, _ := labctl(t, "", "run", "--help")
	for _, name := range []string{"hands-on-lab", "fenced-register", "scheduler", "shards", "election", "herd"} {
		if !strings.Contains(help, name) {
			t.Errorf("run --help does not list %s", name)
		}
		for _, f := range []string{"text", "jsonl", "summary"} {
			out, errs, code := labctl(t, "", "run", name, "--seed", "7", "--format", f)
			if code != 0 || out == "" {
				t.Fatalf("%s %s: exit %d %s", name, f, code, errs)
			}
			if f == "jsonl" {
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					var m map[string]any
					if err := json.Unmarshal([]byte(l), &m); err != nil {
						t.Fatalf("%s: bad JSON line %q: %v", name, l, err)
					}
				}
			}
			if strings.Contains(out, "VIOLATION") {
				t.Errorf("%s: invariant violated:\n%s", name, out)
			}
		}
	}
}

func TestSameSeedSameOutput(t *testing.T) {
	a, _, _ := labctl(t, "", "run", "election", "--seed", "42", "--format", "jsonl")
	b, _, _ := labctl(t, "", "run", "election", "--seed", "42", "--format", "jsonl")
	c, _, _ := labctl(t, "", "run", "election", "--seed", "43", "--format", "jsonl")
	if a != b {
		t.Fatal("same seed gave different traces")
	}
	if a == c {
		t.Fatal("different seeds gave identical traces: the seed is not used")
	}
}

func TestLessonsListAndSolve(t *testing.T) {
	out, _, code := labctl(t, "", "lessons")
	if code != 0 || !strings.Contains(out, "fenced-writes    The paused leader and fenced writes\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, errs, code := labctl(t, "", "lesson", "fenced-writes", "--solve")
	if code != 0 || strings.Contains(out, "UNMET") || strings.Count(out, "[met  ]") != 3 {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
	if _, _, code := labctl(t, "", "lesson", "no-such-lesson", "--solve"); code != 2 {
		t.Fatalf("unknown lesson: exit %d, want 2", code)
	}
}

// --set NAME=N gives a scenario's own setting by name; --stale-token is
// the same as --set stale-token=N. A name the scenario does not have is
// refused with the names it does, exit 2.
func TestRunSetsAScenariosOwnSetting(t *testing.T) {
	byFlag, errs, code := labctl(t, "", "run", "hands-on-lab", "--stale-token", "3")
	require.Equal(t, 0, code, errs)
	bySet, errs, code := labctl(t, "", "run", "hands-on-lab", "--set", "stale-token=3")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, byFlag, bySet)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "hands-on-lab", "--set", "warp=1"}, `no setting "warp" (its own settings: stale-token)`},
		{[]string{"run", "fenced-register", "--set", "stale-token=3"}, `scenario fenced-register has no setting "stale-token"`},
		{[]string{"run", "hands-on-lab", "--set", "stale-token"}, "want NAME=N"},
		{[]string{"run", "hands-on-lab", "--set", "stale-token=x"}, "not a whole number"},
		{[]string{"run", "hands-on-lab", "--set", "stale-token=1", "--stale-token", "2"}, "given twice"},
		{[]string{"run", "hands-on-lab", "--stale-token", "-1"}, "out of range"},
	} {
		_, errs, code := labctl(t, "", c.args...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Contains(t, errs, c.want, "%v", c.args)
	}
	help, _, code := labctl(t, "", "run", "--help")
	require.Equal(t, 0, code)
	assert.Contains(t, help, "hands-on-lab     stale-token: token of A's late write")
}
