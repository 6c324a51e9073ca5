// Package menu is the lesson menu: the sandbox, the lessons in curriculum
// order and the exercises.
//
// The model ([Menu], menu.go) is free of Ebitengine: each row a control
// declared once (its id, words, the learner's progress and what opening
// it does) in a [ui.Deck]. The page lists the declarations. The [Scene]
// (scene.go, scene_draw.go) lays out and draws the deck's buttons, whose
// words are the declarations', and both kinds of click pass the deck's
// one door. The App (package game) holds the scene at the bottom of its
// stack; inspect.go has what it and the tests read of it.
package menu
