import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    t = d['trials'][-1]
    r = t['result']
    print(f, 'trial', t['seconds'])
    for it in r.get('Trace') or r.get('trace') or []:
        import re
        g = lambda k: it.get(re.sub(r'(?<!^)([A-Z])', r'_\1', k).lower())
        ph = ' '.join('%s=%.1f' % (p.get('name'), 1e6*p.get('seconds', 0)) for p in (g('Phases') or []))
        print('  %3s %-8s fv=%-7s fe=%-8s us=%.1f %s' % (g('Iteration'), g('Mode'), g('FrontierVertices'), g('FrontierEdges'), 1e6*(g('Seconds') or 0), ph))
