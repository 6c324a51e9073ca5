// Package answer holds the canvas pieces of an answer form that the
// exercise's answer screen and a lesson's recap card share: the chain of
// events the learner builds ([Chain], whose [ChainHost] is the screen it
// sits on), the column the form's contents are laid out in ([Flow], its
// [Text]s drawn by [DrawTexts]), a finger or the wheel scrolling it
// ([Drag]), and when a box or option of it fired ([Pressed]).
package answer
