// A second-language consumer of dpbounds golden vectors (node >= 18, standard library only).
// Usage: node golden_consumer.mjs DIR   -- exit 0 when every file passes, 1 otherwise (one line per problem).
// It did not write the files: it reads them as a peer library's CI would, from the README's rules alone.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const dir = process.argv[2];
const problems = [];
const fail = (msg) => { if (problems.length < 200) problems.push(msg); };

// ---- exact decimals as (BigInt mantissa, exponent of 10), compared without floating point
const DEC = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:E([+-]?[0-9]+))?$/;
function dec(s) {
  const m = DEC.exec(s);
  if (!m) throw new Error(`not an exact decimal: ${JSON.stringify(s)}`);
  const frac = m[3] ?? "";
  let mant = BigInt(m[2] + frac);
  if (m[1] === "-") mant = -mant;
  return { mant, exp: (m[4] ? parseInt(m[4], 10) : 0) - frac.length };
}
function cmp(a, b) {  // sign of a - b
  const e = Math.min(a.exp, b.exp);
  const x = a.mant * 10n ** BigInt(a.exp - e), y = b.mant * 10n ** BigInt(b.exp - e);
  return x < y ? -1 : x > y ? 1 : 0;
}
function add(a, b) {
  const e = Math.min(a.exp, b.exp);
  return { mant: a.mant * 10n ** BigInt(a.exp - e) + b.mant * 10n ** BigInt(b.exp - e), exp: e };
}
function halfUlp(v, digits) {  // 10^(floor(log10|v|) - digits + 1) / 2, as a decimal
  const a = v.mant < 0n ? -v.mant : v.mant;
  const lead = a.toString().length - 1 + v.exp;  // floor(log10 |v|)
  return { mant: 5n, exp: lead - digits };
}
const neg = (a) => ({ mant: -a.mant, exp: a.exp });
const mul = (a, b) => ({ mant: a.mant * b.mant, exp: a.exp + b.exp });
const abs = (a) => (a.mant < 0n ? neg(a) : a);

// ---- a small RFC 4180 CSV reader
function parseCsv(text) {
  const rows = []; let row = [], cell = "", q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') q = false;
      else cell += c;
    } else if (c === '"') q = true;
    else if (c === ",") { row.push(cell); cell = ""; }
    else if (c === "\n") { row.push(cell); rows.push(row); row = []; cell = ""; }
    else if (c !== "\r") cell += c;
  }
  if (cell !== "" || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

function walk(d) {
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const jsType = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

// ---- manifest: every file listed with its SHA-256, nothing unlisted
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
const files = walk(dir).map((p) => relative(dir, p).split("\\").join("/")).filter((p) => p !== "manifest.json");
for (const rel of files) {
  const meta = manifest.files[rel];
  if (!meta) { fail(`${rel}: not in the manifest`); continue; }
  const h = createHash("sha256").update(readFileSync(join(dir, rel))).digest("hex");
  if (h !== meta.sha256) fail(`${rel}: sha256 ${h} != manifest ${meta.sha256}`);
}
for (const rel of Object.keys(manifest.files)) if (!files.includes(rel)) fail(`${rel}: listed but missing`);

// ---- the schemas: which fields may be null
const schemas = {};
for (const rel of files.filter((f) => f.startsWith("schemas/"))) {
  schemas[rel.slice("schemas/".length, -".schema.json".length)] = JSON.parse(readFileSync(join(dir, rel), "utf8"));
}
const nullable = (kind, key) => {
  const t = schemas[kind]?.properties?.[key]?.type;
  return Array.isArray(t) && t.includes("null");
};

const fieldTypes = {};  // kind -> field -> the one non-null type seen
let nRecords = 0;
const kindsSeen = new Set();
for (const rel of files.filter((f) => f.endsWith(".jsonl")).sort()) {
  const kind = manifest.files[rel]?.kind;
  if (!schemas[kind]) { fail(`${rel}: kind ${kind} has no schema`); continue; }
  kindsSeen.add(kind);
  const lines = readFileSync(join(dir, rel), "utf8").split("\n").filter((l) => l.length);
  const recs = lines.map((l) => JSON.parse(l));
  const seen = new Set();
  const types = (fieldTypes[kind] ??= {});
  const streams = new Map();
  recs.forEach((r, i) => {
    const at = `${rel}:${i + 1}`;
    nRecords++;
    if (r.kind !== kind) fail(`${at}: kind ${r.kind} in a ${kind} file`);
    if (seen.has(lines[i])) fail(`${at}: duplicate record`);
    seen.add(lines[i]);
    for (const k of schemas[kind].required) if (!(k in r)) fail(`${at}: missing ${k}`);
    for (const [k, v] of Object.entries(r)) {
      const prop = schemas[kind].properties?.[k];
      if (!prop) fail(`${at}: field ${k} is not in the ${kind} schema`);
      else if (prop.type !== undefined) {  // the schema's declared type(s); an integer is also a number
        const allowed = [].concat(prop.type), t0 = jsType(v);
        if (!allowed.includes(t0) && !(t0 === "integer" && allowed.includes("number")))
          fail(`${at}: ${k} is ${t0}, the schema says ${allowed.join("|")}`);
      }
      let t = jsType(v);
      if (t === "null") { if (!nullable(kind, k)) fail(`${at}: ${k} is null, the schema does not allow it`); continue; }
      if (t === "integer" && types[k] === "number") t = "number";
      if (t === "number" && types[k] === "integer") types[k] = "number";
      if (types[k] === undefined) types[k] = t;
      else if (types[k] !== t) fail(`${at}: ${k} is ${t}, earlier ${kind} records have ${types[k]}`);
    }
    // the numeric invariants
    try {
      for (const obj of [r.params, r.budget]) if (obj) for (const v of Object.values(obj)) dec(v);
      if ("value" in r) {
        if (r.infinite) {
          for (const k of ["value", "lo", "hi", "upper", "lower"]) if (r[k] !== null) fail(`${at}: infinite but ${k} set`);
        } else {
          const lo = dec(r.lo), hi = dec(r.hi), v = dec(r.value);
          if (cmp(lo, hi) > 0) fail(`${at}: lo > hi`);
          if (r.exact && (cmp(lo, v) !== 0 || cmp(hi, v) !== 0)) fail(`${at}: exact but lo/hi != value`);
          const h = halfUlp(v, r.digits);  // a backed value is within half an ulp of a point of [lo, hi]
          if (cmp(add(v, h), lo) < 0 || cmp(add(v, neg(h)), hi) > 0) fail(`${at}: value ${r.value} not backed by [lo, hi] at ${r.digits} digits`);
          const upper = r.upper === null ? Infinity : r.upper;
          if (r.lower === null || !(r.lower <= upper)) fail(`${at}: lower ${r.lower} > upper ${r.upper}`);
          if (!(r.lower <= Number(r.hi)) || !(upper >= Number(r.lo))) fail(`${at}: float bracket outside [lo, hi]`);
        }
      }
      if ("rel_tol" in r) {  // an entry with only a certified evaluator: [lo, hi] certified to this relative width
        const tol = dec(r.rel_tol);
        if (cmp(tol, dec("0")) <= 0 || cmp(tol, dec("1")) >= 0) fail(`${at}: rel_tol ${r.rel_tol} not in (0, 1)`);
        else if (!r.infinite) {
          const lo = dec(r.lo), hi = dec(r.hi), m = cmp(abs(lo), abs(hi)) > 0 ? abs(lo) : abs(hi);
          if (cmp(add(hi, neg(lo)), mul(tol, m)) > 0) fail(`${at}: [lo, hi] wider than rel_tol ${r.rel_tol}`);
        }
      }
      if (kind === "bstar") {
        const b = dec(r.b_star), lo = dec(r.lo), hi = dec(r.hi);
        if (cmp(b, lo) > 0 || cmp(lo, hi) > 0) fail(`${at}: not b_star <= lo <= hi`);
        if (!(r.lower <= Number(r.lo))) fail(`${at}: lower > lo`);
      }
      if (kind === "filter_stream" || kind === "odometer_stream") {
        for (const k of ["eps", "delta", "rho"]) if (r[k] !== null) dec(r[k]);
        const key = JSON.stringify([r.id, r.budget ?? r.params, r.stream]);
        const s = streams.get(key) ?? { next: 1, halted: false };
        if (r.round !== s.next) fail(`${at}: round ${r.round}, expected ${s.next}`);
        if (s.halted) fail(`${at}: a round after HALT`);
        s.next = r.round + 1; s.halted = r.halt === true;
        streams.set(key, s);
      }
    } catch (e) { fail(`${at}: ${e.message}`); }
  });
  // the CSV twin: same records, scalar fields equal under the README's rules
  const twin = rel.replace(/\.jsonl$/, ".csv");
  if (files.includes(twin)) {
    const rows = parseCsv(readFileSync(join(dir, twin), "utf8"));
    const head = rows[0];
    if (rows.length - 1 !== recs.length) fail(`${twin}: ${rows.length - 1} rows, ${recs.length} records`);
    recs.forEach((r, i) => {
      const row = rows[i + 1] ?? [];
      head.forEach((col, j) => {
        const [top, sub] = col.split(".", 2);
        const v = sub === undefined ? r[top] : r[top]?.[sub];
        const cell = row[j];
        const ok = v === null || v === undefined ? cell === "" : typeof v === "boolean" ? cell === String(v)
          : typeof v === "number" ? Number(cell) === v : cell === String(v);
        if (!ok) fail(`${twin}:${i + 2}: column ${col} = ${JSON.stringify(cell)}, JSON has ${JSON.stringify(v)}`);
      });
    });
  } else fail(`${rel}: no CSV twin`);
}

for (const p of problems) console.log(p);
console.log(`${dir}: ${nRecords} records of kinds ${[...kindsSeen].sort().join(", ")}: ` +
  (problems.length ? `${problems.length} problems` : "all invariants hold"));
process.exit(problems.length ? 1 : 0);
