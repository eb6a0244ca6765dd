package sim

type activityState struct{}

func (s *Server) runActivity() { defer s.wg.Done() }
