import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
hdr=rows[1]; data=rows[2:]
iS=hdr.index("Warp Stall Sampling (All Samples)"); iE=hdr.index("Instructions Executed")
st=[i for i,h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
tot=sum(int(r[iS]) for r in data)
print("total samples",tot, "instructions executed", sum(int(r[iE] or 0) for r in data))
agg={}
for r in data:
    for i in st: agg[hdr[i]]=agg.get(hdr[i],0)+int(r[i] or 0)
print(sorted(agg.items(),key=lambda x:-x[1])[:10])
top=sorted(range(len(data)),key=lambda k:-int(data[k][iS]))[:int(sys.argv[2])]
for k in sorted(top):
    r=data[k]; s=sorted([(int(r[i] or 0),hdr[i][6:]) for i in st],reverse=True)[:3]
    print(k, r[0][-5:], r[1].strip()[:60].ljust(60), r[iS], r[iE], s)
