package core_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"leaselab/core"
	"leaselab/core/sandbox"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryScenarioAndPresetHasAValidCausalTrace(t *testing.T) {
	for _, sc := range sandbox.Scenarios() {
		for _, seed := range []uint64{1, 2, 3} {
			r, err := sc.Run(sandbox.Params{Seed: seed})
			require.NoError(t, err)
			core.CheckCauses(t, sc.Name, r.Sim.Trace)
		}
	}
	for _, p := range sandbox.Presets() {
		s, err := p.Config.Build()
		require.NoError(t, err)
		s.RunUntil(p.Config.Duration)
		core.CheckCauses(t, p.Name, s.Trace)
	}
}

// The chains say what a learner would: a late write's verdict goes back
// through its send to the paused holder's wake-up, and the rival's token
// to the expiry of the holder's lease, caused by its last renewal.
func TestChainsFollowTheStory(t *testing.T) {
	sc, err := sandbox.FindScenario("fenced-register")
	require.NoError(t, err)
	r, err := sc.Run(sandbox.Params{Seed: 1})
	require.NoError(t, err)
	tr := r.Sim.Trace
	var rejected *core.Event
	for i := range tr.Len() {
		if e := tr.At(i); e.Kind == core.KindWrite && e.Result() == core.RejectedStale {
			rejected = e
			break
		}
	}
	require.NotNil(t, rejected, "the scenario has a rejected write")
	kinds := map[core.Kind]bool{}
	for _, e := range tr.Chain(rejected) {
		kinds[e.Kind] = true
	}
	assert.True(t, kinds[core.KindSend], "the verdict is caused by the write's send")
	require.Len(t, rejected.Causes(), 2, "and by the write that set the highest token")
	highest := tr.Event(rejected.Causes()[1])
	require.NotNil(t, highest)
	assert.Equal(t, core.KindWrite, highest.Kind)
	assert.Equal(t, rejected.Highest(), highest.Token(), "the second cause carries the highest token the verdict compared with")

	for e := range tr.All() {
		if e.Kind != core.KindLeaseExpire {
			continue
		}
		c := tr.Event(e.Causes()[0])
		require.NotNil(t, c)
		assert.Contains(t, []core.Kind{core.KindLeaseRenew, core.KindLeaseGrant}, c.Kind, "an expiry is caused by the lease's last renewal")
		assert.Equal(t, e.Lease(), c.Lease())
		assert.GreaterOrEqual(t, e.At-c.At, time.Duration(0))
	}
}

// Causes were added to the events as they were: take them out and every
// trace is byte for byte what it was, so every hash changed once, for
// this reason alone.
func TestCausesAreTheOnlyChangeToAnyTrace(t *testing.T) {
	got := map[string]string{}
	for _, sc := range sandbox.Scenarios() {
		for _, seed := range []uint64{1, 2, 3} {
			r, err := sc.Run(sandbox.Params{Seed: seed})
			require.NoError(t, err)
			got[fmt.Sprintf("%s/%d", sc.Name, seed)] = hashWithoutCauses(r.Sim.Trace)
		}
	}
	for _, p := range sandbox.Presets() {
		s, err := p.Config.Build()
		require.NoError(t, err)
		s.RunUntil(p.Config.Duration)
		got["preset:"+p.Name] = hashWithoutCauses(s.Trace)
	}
	assert.Equal(t, hashesBeforeCauses, got)
}

// hashesBeforeCauses are the trace hashes of every scenario (seeds 1-3) and
// preset before events carried their causes (main at d266817).
var hashesBeforeCauses = map[string]string{
	"hands-on-lab/1":         "34423285849d9cafceaf3718073452b58747bdaa1746d8e571ec9cf1359347f9",
	"hands-on-lab/2":         "c277a8eb174c472edf9fe5c8292d5f6526873409980e587b385208e157ebc5ef",
	"hands-on-lab/3":         "a679245b25ed7cc80156d197121612a22eb41df5c081cd67e13ccf04ed034b4f",
	"fenced-register/1":      "bae0246ce526cd271deaa7c6d91b500bd4966b29cc0850de9409e844f6794b9f",
	"fenced-register/2":      "5382f814c53f4a7ced78a94e6a7ce890a806b571c8227f2ff157ebd64d400045",
	"fenced-register/3":      "6310288bb242103027ec0cbf241dafb60d0d6043b04d929ed7043bfc3fbfe4b7",
	"scheduler/1":            "f6a76323fa60d1a5ea1d4899b28343cb0f9124d72e0c7b027d7f16991767a739",
	"scheduler/2":            "9f67374881deaa16fe8aecf8950a421ca2e21261f0717aa59f75c75461aa68a9",
	"scheduler/3":            "df879797abbe29e14c3c8ea8c34825eb99125a5f550720c1cada236513c98e43",
	"shards/1":               "adfdd11a706cd7c63786dc43acf0ec8e4f159201b0cd06582261c55631dac59a",
	"shards/2":               "edd513ddb8e6ac45cd54b3906f1a557271595f068c692c17e217760ef84f8af1",
	"shards/3":               "ddd25c065bc5340f6cad8fcf281ed49baf1f235f10f62f045059aaae2826c20b",
	"election/1":             "9a13f3da7737450f51024980857c14634c620da9e2a499925e66c886eabecf72",
	"election/2":             "1cc8864725e2573b66762aaff40d1d42d4399cfcf0ab5d3e5f40f4d3e283e6b6",
	"election/3":             "493dbc8308a8d80c6cc6ed96cbc4c9795f9b4f90ebce4d058ec78577fb6d0026",
	"herd/1":                 "af551afc25d75ff07a7443350ce4867be038f768354b3af8319c50df2165f27a",
	"herd/2":                 "4a83469eb6a2406f0ea1e1961962a3a7f03e9a3e6c2235c9f77cdf1626c14787",
	"herd/3":                 "86ec9393f56744e3725a616e90e2a10c4e219f90ae59c64cec8e34967bfe2c19",
	"preset:leases":          "79b618e50b9a8bc00c31f11420af09df5f9fb1d98be20bf3be906b5efb9e93d0",
	"preset:hands-on-lab":    "21c3d3d6be4088a36d1b9c696d2877941ec36c058a74c4e6011df27c79f3d413",
	"preset:fenced-register": "70554c0e7ced050436ee5961feee1b7df5180c9aac4710c5a95c77c1bb4dbd38",
	"preset:scheduler":       "1fc5fa7b95fbedd2ebf82cdb7af7f89385e0aa45af40d687deef56147e03696e",
	"preset:shards":          "c64523c1cf0356f9700983a0699c46682756694674d8f8d51e4f51744b055e01",
	"preset:election":        "37720f306cbc76008daf7c6931c016ddc9a04a1ba9075cfd6d11eb85b0fc17d1",
	"preset:herd":            "ad7bd6ce7648b008c72f36d60a638dc78bd3e911f77cefd0e591c18f74167c33",
	"preset:pause-storm":     "801367994d5410de5d5b343d2ec853033666767e364c3ed8c2d360dc05592995",
	"preset:etcd":            "87c01bfd43221a26603d53e32ffac882ef28b385676536efe7f8b19b5bbeabc3",
	"preset:zookeeper":       "f9824da1b590849598986cad945ac7716bb210653e2a93f37a2acbd76d30a616",
	"preset:consul":          "4aee447436de46bad777d97bb489e537db80cd00e3479bb6074728b9ef46aad5",
	"preset:kubernetes":      "a3fc7aa14c3811df3a0fcf9bf142260273e61c1b01d37ea437e85c59a26d8ba3",
	"preset:redlock":         "ab42d57397606dab0054464645f47fb1e5f9ca4f94c3141b4d118ef2abead58c",
}

// hashWithoutCauses hashes the text form of tr with each event's causes
// taken out: the trace as it was before events carried them.
func hashWithoutCauses(tr *core.Trace) string {
	h := sha256.New()
	for i := range tr.Len() {
		io.WriteString(h, causeSuffix.ReplaceAllString(tr.At(i).Text(), ""))
		io.WriteString(h, "\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

var causeSuffix = regexp.MustCompile(` cause=[0-9,]+$`)
