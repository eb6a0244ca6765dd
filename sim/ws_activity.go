package sim

// SetActivity changes the background activity rate (events per second)
// of a running simulator; 0 pauses it. It only has an effect when the
// simulator was started with Activity > 0. Tests pause the activity to let
// a client settle and then compare it with the REST truth.
func (s *Server) SetActivity(rate float64) {
	s.locked(func() { s.opts.Activity = max(rate, 0) })
}
