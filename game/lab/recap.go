package lab

import "leaselab/lessons"

// The lesson's recap question asked with the learner's own run
// (lessons.RecapChain): the run's events to pick from, and the verdict on
// a chain of them.

// RecapQuestion is the lesson's recap question, when it asks for a chain
// and the run on show is the learner's own and has shown what the
// question is about ("" otherwise).
func (lb *Lab) RecapQuestion() string {
	q := lb.Lesson.RecapChain
	if q == nil || lb.shown != RunMine || !q.Asks(lb.world) {
		return ""
	}
	return q.Question
}

// RecapEvents lists the events of the run so far to build the chain from.
func (lb *Lab) RecapEvents() []WhyStep { return ChainEvents(lb.world.Sim.Trace) }

// JudgeRecap judges chain against the run so far.
func (lb *Lab) JudgeRecap(chain []int) lessons.Feedback {
	return lb.Lesson.RecapChain.Judge(lb.world, chain)
}
