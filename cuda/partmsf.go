package cuda

// PartMSF is a part's state for the rounds of a minimum spanning forest
// over parts on its device (partition.RunMSF, partmsf.cu), over the part's
// DeviceLayout: the owned vertices' layout ids and every layout id's
// original id (uploaded once), the components by layout id (each round)
// and each owned vertex's lightest edge out of its component.
type PartMSF struct {
	owned
	dl         *DeviceLayout
	numOwned   int
	ownedLid   *Buffer[uint32]
	orig, comp *Buffer[uint32]
	out        *Buffer[uint32]
}

// NewPartMSF allocates the state over dl: ownedLid lists the owned
// vertices' layout ids (the part's numbering), origByLid every layout
// id's original id. A buffer that does not fit is named with its size.
func NewPartMSF(dl *DeviceLayout, ownedLid, origByLid []uint32) (*PartMSF, error) {
	n := dl.desc.n
	if uint64(len(origByLid)) != n || uint64(len(ownedLid)) > n {
		return nil, invalidf("NewPartMSF", "%d owned vertices and %d original ids for a layout of %d", len(ownedLid), len(origByLid), n)
	}
	for i, lid := range ownedLid {
		if uint64(lid) >= n {
			return nil, invalidf("NewPartMSF", "owned vertex %d has layout id %d of %d", i, lid, n)
		}
	}
	p := &PartMSF{dl: dl, numOwned: len(ownedLid)}
	if err := p.uploadIds(dl.dev, idsUpload{"owned vertices' layout ids", &p.ownedLid, ownedLid},
		idsUpload{"original ids by layout id", &p.orig, origByLid}); err != nil {
		p.release()
		return nil, err
	}
	var err error
	if p.comp, err = allocNamed[uint32](&p.owned, dl.dev, "components by layout id", int(n)); err != nil {
		p.release()
		return nil, err
	}
	if p.out, err = allocNamed[uint32](&p.owned, dl.dev, "owned vertices' lightest edges", 3*len(ownedLid)); err != nil {
		p.release()
		return nil, err
	}
	return p, nil
}

// Lightest takes every layout id's component (comp) and writes each owned
// vertex's lightest edge to another component into out (3 per vertex, in
// the owned order: weight, lesser original id, greater; three
// 0xffffffff without one).
func (p *PartMSF) Lightest(comp, out []uint32) error {
	if uint64(len(comp)) != p.dl.desc.n || len(out) != 3*p.numOwned {
		return invalidf("PartMSF.Lightest", "%d components and %d outputs for %d vertices, %d owned", len(comp), len(out),
			p.dl.desc.n, p.numOwned)
	}
	if p.numOwned == 0 {
		return nil
	}
	if err := p.comp.CopyFromHost(comp); err != nil {
		return err
	}
	d := p.dl.desc
	if err := backendPartMSFLightest(p.dl.dev.ordinal, evp(d.sparseOffsets), evp(d.sparseDst), evp(d.sparseWeights),
		p.ownedLid.h.p, uint64(p.numOwned), p.orig.h.p, p.comp.h.p, p.out.h.p); err != nil {
		return err
	}
	return p.out.CopyToHost(out)
}

// Close frees the state (not the layout).
func (p *PartMSF) Close() error { return p.release() }
