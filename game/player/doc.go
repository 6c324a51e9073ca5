// Package player is the lesson player: the [Player] every screen with a
// run is built on (a lesson, the sandbox's run, an exercise's simulator, a
// comparison), made once from a [PlayerSpec]. It lays out the world and
// timeline views it is given (game/view), the time controls, the lesson
// panel with its goals, hints, narration ([Narration]) and run row, the
// knobs ([KnobPanel]), and the prediction and Why? cards.
//
// player.go holds the Player and its spec; player_update.go,
// player_layout.go and player_draw.go its three steps; player_host.go the
// controls it declares for the page; player_notice.go, player_predict.go
// and player_why.go the notice, the prediction card and Why?; runrow.go
// the run's buttons and panel_fit.go how the lesson panel's texts fit.
// surface.go is what the scenes that hold a Player use beyond a scene's
// methods, inspect.go what their tests read.
package player
