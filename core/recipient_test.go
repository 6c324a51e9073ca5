package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A message reaches the actor named, however many names share a place
// in the network's memory of recipients, and a name no actor has reaches
// no one.
func TestAMessageReachesTheActorItNames(t *testing.T) {
	s := NewSim(1)
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("register-%02d", i))
		s.AddRegister(names[i], true)
	}
	for range 3 { // the second and third rounds find them remembered
		for _, name := range names {
			if a := s.Net.recipient(name); assert.NotNil(t, a, name) {
				assert.Equal(t, name, a.name())
			}
		}
		assert.Nil(t, s.Net.recipient("register-99"))
		assert.Nil(t, s.Net.recipient(""))
	}
}
