package lessons

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"leaselab/core"
)

// A share is a learner's answer as they hand it to an instructor: the
// answer itself (its schedule is their run: the simulator makes it again),
// the verdict they saw, and what their lab recorded about help taken (the
// model answer shown, hints seen). Verify grades the answer again from
// scratch, so a verdict cannot be forged; what the share says about help
// is the learner's own record, which Verify reports as such.

// Share is one shared answer. Its JSON form is the file; Link is the same
// in one line for an address (#share=...).
type Share struct {
	V        int             `json:"v"`
	Exercise string          `json:"exercise"`
	Answer   json.RawMessage `json:"answer"`
	// Pass and Parts are the verdict the learner saw.
	Pass  bool         `json:"pass"`
	Parts []SharedPart `json:"parts,omitempty"`
	// PassedClean: the learner's lab recorded a pass before the model
	// answer was shown. ModelShown: it has been shown (before or after).
	PassedClean bool `json:"passed_clean"`
	ModelShown  bool `json:"model_shown"`
	HintsSeen   int  `json:"hints_seen"`
	Attempts    int  `json:"attempts"`
}

// SharedPart is one part of the verdict as the learner saw it.
type SharedPart struct {
	Part string `json:"part"`
	OK   bool   `json:"ok"`
}

// MaxShareSize bounds a share's text: an answer and its record.
const MaxShareSize = 4 * MaxAnswerSize

// ErrShare is a share that cannot be read.
var ErrShare = errors.New("not a LeaseLab share")

// NewShare records answer a to e with the verdict r and the help the
// learner's lab recorded.
func NewShare(e *Exercise, a Answer, r Result, passedClean, modelShown bool, hintsSeen, attempts int) (Share, error) {
	b, err := json.Marshal(a)
	if err != nil {
		return Share{}, err
	}
	s := Share{V: 1, Exercise: e.ID, Answer: b, Pass: r.Pass, PassedClean: passedClean, ModelShown: modelShown, HintsSeen: hintsSeen, Attempts: attempts}
	for _, p := range r.Parts {
		s.Parts = append(s.Parts, SharedPart{Part: p.Part, OK: p.OK})
	}
	return s, nil
}

// Link is the share as an address fragment: "#share=" and the JSON in
// base64url.
func (s Share) Link() string {
	b, _ := json.Marshal(s) // plain data: cannot fail
	return "#share=" + base64.RawURLEncoding.EncodeToString(b)
}

// ParseShare reads a share from text: a whole address or fragment with
// #share=, the code after it, or the share's JSON.
func ParseShare(text string) (Share, error) {
	if len(text) > MaxShareSize*2 {
		return Share{}, fmt.Errorf("%w: %d bytes is more than a share can hold", ErrShare, len(text))
	}
	text = strings.TrimSpace(text)
	var raw []byte
	if strings.HasPrefix(text, "{") {
		raw = []byte(text)
	} else {
		if i := strings.Index(text, "share="); i >= 0 {
			text = text[i+len("share="):]
		}
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(text, "="))
		if err != nil {
			return Share{}, fmt.Errorf("%w: the code is not base64url (%v)", ErrShare, err)
		}
		raw = b
	}
	clean, err := core.CleanJSON(raw)
	if err != nil {
		return Share{}, fmt.Errorf("%w: %v", ErrShare, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(clean)))
	dec.DisallowUnknownFields()
	var s Share
	if err := dec.Decode(&s); err != nil {
		return Share{}, fmt.Errorf("%w: %v", ErrShare, err)
	}
	switch {
	case s.V != 1:
		return Share{}, fmt.Errorf("%w: version %d (this lab reads version 1)", ErrShare, s.V)
	case len(s.Answer) == 0:
		return Share{}, fmt.Errorf("%w: it holds no answer", ErrShare)
	case s.HintsSeen < 0 || s.Attempts < 0:
		return Share{}, fmt.Errorf("%w: a negative count", ErrShare)
	}
	return s, nil
}

// Verified is a share graded again from scratch.
type Verified struct {
	Share  Share
	Result Result
	// Agrees: the verdict the share claims is the one the answer gets.
	Agrees bool
}

// Verify grades the shared answer again, as if it were given now.
func (s Share) Verify() (Verified, error) {
	j, err := s.Start()
	if err != nil {
		return Verified{}, err
	}
	for !j.Step(1 << 20) {
	}
	return s.Verdict(j.Result()), nil
}

// Start begins grading the shared answer again, in steps (a front end
// spreads them over frames); Verdict reads the finished job's result.
func (s Share) Start() (Job, error) {
	e, err := FindExercise(s.Exercise)
	if err != nil {
		return nil, fmt.Errorf("the share is for %q: %v", s.Exercise, err)
	}
	a, err := e.ParseAnswer(s.Answer)
	if err != nil {
		return nil, fmt.Errorf("the shared answer: %v", err)
	}
	j, err := e.Start(a)
	if err != nil {
		return nil, fmt.Errorf("the shared answer: %v", err)
	}
	return j, nil
}

// Verdict is the share with r, the verdict its answer got when graded
// again.
func (s Share) Verdict(r Result) Verified {
	return Verified{Share: s, Result: r, Agrees: r.Pass == s.Pass}
}

// Help says what the learner's lab recorded about the model answer, for
// an instructor.
func (v Verified) Help() string {
	s := v.Share
	var b strings.Builder
	switch {
	case v.Result.Pass && s.PassedClean:
		b.WriteString("The learner's lab recorded a pass before the model answer was shown.")
	case v.Result.Pass && s.ModelShown:
		b.WriteString("The model answer had been shown before this pass.")
	case v.Result.Pass:
		b.WriteString("The learner's lab recorded no pass before this one, and no model answer shown.")
	case s.ModelShown:
		b.WriteString("The answer does not pass, and the model answer has been shown.")
	default:
		b.WriteString("The answer does not pass; the model answer has not been shown.")
	}
	fmt.Fprintf(&b, " Hints seen: %d; answers checked: %d. (This is the learner's own record, which a share file could change; the verdict above is graded again here and cannot be.)", s.HintsSeen, s.Attempts)
	return b.String()
}
