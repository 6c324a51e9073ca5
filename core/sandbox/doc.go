// Package sandbox is free play: a Config lists every parameter of the
// sandbox's setup panel (contenders or shard workers, the lock, the
// lease, pauses, the network, the system and its cluster), Validate says
// what is wrong with it field by field (FieldError; World refuses with an
// *InvalidError that wraps ErrInvalid), World writes it as a core.World,
// and PolicyVerdict judges its lease policy. Presets are named
// configurations (the lessons' scenarios and the real systems' defaults);
// Scenarios are the built-in named runs labctl offers, with their knobs
// (Params) and summaries.
//
// What a coordination system refuses or changes in a configuration is the
// system's own, in core: Config.Settings hands core.SystemSettings to it,
// and each core.SettingError comes back under this package's field name.
package sandbox
