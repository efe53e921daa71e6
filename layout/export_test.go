package layout

// SectionBytes exposes the raw bytes of one section to the external tests.
func SectionBytes(l *Layout, name string) []byte {
	for _, r := range l.refs() {
		if r.name == name {
			return r.bytes()
		}
	}
	return nil
}
