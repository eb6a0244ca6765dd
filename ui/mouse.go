package ui

import tea "charm.land/bubbletea/v2"

// onClick focuses the pane under the pointer and selects the row there.
func (m Model) onClick(mouse tea.Mouse) Model {
	if m.form != nil || m.confirm != nil || m.showHelp || mouse.Button != tea.MouseLeft {
		return m
	}
	id, ok := m.lay.paneAt(mouse.X, mouse.Y, m.focus)
	if !ok {
		return m
	}
	if id >= 0 {
		m.focus = id
		if m.lay.tabs && mouse.Y == m.lay.body.y {
			return m
		}
	}
	r := m.lay.panes[m.focus]
	row := mouse.Y - r.y - 2
	p := &m.panes[m.focus]
	if ri, ok := m.wrappedRowAt(p, r, row); ok {
		if ri >= 0 {
			p.cursor, p.follow = ri, false
		}
		return m
	}
	if row >= 0 && p.offset+row < len(p.rows) {
		p.cursor = p.offset + row
		p.follow = false
	}
	return m
}

// onWheel scrolls the pane under the pointer, or the help when it is
// open.
func (m Model) onWheel(mouse tea.Mouse) Model {
	if m.mode() == modeHelp {
		win := m.helpScreen().win
		switch mouse.Button {
		case tea.MouseWheelUp:
			m.helpTop = max(0, win.top-3)
		case tea.MouseWheelDown:
			m.helpTop = min(win.maxTop(), win.top+3)
		}
		return m
	}
	if m.form != nil || m.confirm != nil || m.showHelp {
		return m
	}
	id, ok := m.lay.paneAt(mouse.X, mouse.Y, m.focus)
	if !ok || id < 0 {
		id = m.focus
	}
	p := &m.panes[id]
	switch mouse.Button {
	case tea.MouseWheelUp:
		p.move(-3)
	case tea.MouseWheelDown:
		p.move(3)
	}
	p.scrollTo(m.lay.bodyRows(id))
	p.prepare(m.lay.panes[id].w, m.lay.bodyRows(id), m.mk)
	return m
}
