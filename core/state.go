package core

// State is a contender's position in the leadership state machine. Loss of
// leadership is a state of its own (SteppingDown), not a boolean flipping.
type State int

const (
	Follower     State = iota // not campaigning, or waiting to retry
	Candidate                 // has a session and is queued for the lock
	Leader                    // believes it holds the lock
	SteppingDown              // lost or gave up the lock; work stopped, releasing
)

var stateNames = [...]string{"follower", "candidate", "leader", "stepping_down"}

func (s State) String() string { return stateNames[s] }

// stateWords are the states in a learner's words, for what is shown (the
// trace keeps the names above).
var stateWords = [...]string{"waiting", "in line", "leader", "stepping down"}

// Words is the state in a learner's words ("stepping down", not
// "stepping_down").
func (s State) Words() string { return stateWords[s] }

// StateWords is a state's trace name ("stepping_down") in a learner's
// words; a name it does not know is returned as it is.
func StateWords(name string) string {
	for i, n := range stateNames {
		if n == name {
			return stateWords[i]
		}
	}
	return name
}
