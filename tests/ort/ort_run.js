// Runs an ONNX model with onnxruntime-node, the independent reference the
// interpreter is checked against.
//   node ort_run.js ORT_MODULE_DIR MODEL IN.npy [IN.npy ...] -- OUT.npy [OUT.npy ...]
// Inputs feed the model's inputs in order; outputs are written in order.
'use strict';
const fs = require('fs');
const path = require('path');

function fail(msg) {
  process.stderr.write('ort_run: ' + msg + '\n');
  process.exit(2);
}

const DTYPES = { '<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array],
                 '<i4': ['int32', Int32Array], '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array] };

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') fail(file + ': not a .npy file');
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const hstart = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', hstart, hstart + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !shape || /'fortran_order':\s*True/.test(header)) fail(file + ': unsupported .npy header ' + header);
  const dt = DTYPES[descr[1]];
  if (!dt) fail(file + ': unsupported dtype ' + descr[1]);
  const dims = shape[1].split(',').map(s => s.trim()).filter(s => s.length).map(Number);
  const off = hstart + hlen;
  const bytes = buf.subarray(off);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return { type: dt[0], data: new dt[1](copy.buffer, 0, bytes.length / dt[1].BYTES_PER_ELEMENT), dims };
}

function writeNpy(file, tensor) {
  const descr = Object.keys(DTYPES).find(k => DTYPES[k][0] === tensor.type);
  if (!descr) fail('cannot write dtype ' + tensor.type);
  const shape = tensor.dims.length === 1 ? '(' + tensor.dims[0] + ',)' : '(' + tensor.dims.join(', ') + ')';
  let header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ', }';
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  const tmp = file + '.tmp';
  fs.writeFileSync(tmp, Buffer.concat([pre, Buffer.from(header, 'latin1'), data]));
  fs.renameSync(tmp, file);
}

async function main() {
  const args = process.argv.slice(2);
  const sep = args.indexOf('--');
  if (args.length < 3 || sep < 0) fail('usage: node ort_run.js ORT_MODULE_DIR MODEL IN.npy... -- OUT.npy...');
  const ort = require(path.resolve(args[0]));
  const model = args[1];
  const ins = args.slice(2, sep);
  const outs = args.slice(sep + 1);
  const sess = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'disabled' });
  if (ins.length !== sess.inputNames.length) fail(model + ' has ' + sess.inputNames.length + ' inputs, ' + ins.length + ' given');
  const feeds = {};
  ins.forEach((f, i) => {
    const t = readNpy(f);
    feeds[sess.inputNames[i]] = new ort.Tensor(t.type, t.data, t.dims);
  });
  const res = await sess.run(feeds);
  outs.forEach((f, i) => {
    const t = res[sess.outputNames[i]];
    writeNpy(f, t);
    console.log('ort output ' + i + ' ' + sess.outputNames[i] + ' [' + t.dims.join(',') + '] -> ' + f);
  });
}

main().catch(e => fail(String(e && e.message ? e.message : e)));
