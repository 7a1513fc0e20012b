#!/usr/bin/env node
// face-api's own TinyFaceDetector run in node on a JPEG photo: the
// independent reference of the face detector kiln reads.  Uses the npm
// packages of scripts/install-deps.sh (folder --deps): @vladmandic/face-api
// (its node-wasm bundle, which loads plain @tensorflow/tfjs; the backend is
// then set to tfjs's pure-JS "cpu") and jpeg-js to decode the photo.
//
// Writes into --out-dir:
//   input.npy   the tensor face-api feeds the network (after its pad to
//               square, resize and (p - mean) / 255), as NCHW [1,3,S,S] fp32
//   head.npy    the network's raw output, as NCHW [1,25,S/32,S/32] fp32
//   boxes.json  face-api's detections in the photo's pixels:
//               {"image", "width", "height", "input_size", "score_threshold",
//                "boxes": [{"x", "y", "w", "h", "score"}, ...]} (by score)
// Exits 2 with the reason when a package, the photo or an option is wrong.
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const USAGE = 'usage: faceapi_ref.js --image PHOTO.jpg --out-dir DIR [--size S] ' +
  '[--score-threshold T] [--deps DIR]';

function fail(msg) {
  process.stderr.write(`faceapi_ref.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = { size: 224, scoreThreshold: 0.5, deps: '/opt/kiln-deps' };
  const names = { '--image': 'image', '--out-dir': 'outDir', '--size': 'size',
    '--score-threshold': 'scoreThreshold', '--deps': 'deps' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || i + 1 >= argv.length) fail(`bad argument '${argv[i]}'\n${USAGE}`);
    a[key] = argv[i + 1];
  }
  if (!a.image || !a.outDir) fail(USAGE);
  a.size = Number(a.size);
  a.scoreThreshold = Number(a.scoreThreshold);
  if (!Number.isInteger(a.size) || a.size < 64 || a.size % 32) fail('--size must be a multiple of 32, at least 64');
  if (!(a.scoreThreshold > 0 && a.scoreThreshold < 1)) fail('--score-threshold must be in (0, 1)');
  return a;
}

// An .npy (format 1.0, little-endian float32, C order) of data with shape,
// written to a temporary name and renamed.
function writeNpy(file, shape, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')},), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const body = Buffer.from(Float32Array.from(data).buffer);
  fs.writeFileSync(`${file}.tmp`, Buffer.concat([pre, Buffer.from(header, 'latin1'), body]));
  fs.renameSync(`${file}.tmp`, file);
}

// NHWC [1,H,W,C] data to NCHW order.
function nhwcToNchw(data, h, w, c) {
  const out = new Float32Array(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let k = 0; k < c; k++) out[(k * h + y) * w + x] = data[(y * w + x) * c + k];
    }
  }
  return out;
}

function loadPackages(deps) {
  const req = createRequire(path.join(deps, 'node_modules', 'noop.js'));
  try {
    const tf = req('@tensorflow/tfjs');
    const faceapi = req('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const jpeg = req('jpeg-js');
    const modelDir = path.join(path.dirname(req.resolve('@vladmandic/face-api/package.json')), 'model');
    return { tf, faceapi, jpeg, modelDir };
  } catch (e) {
    return fail(`npm packages missing under ${deps} (scripts/install-deps.sh): ${e.message.split('\n')[0]}`);
  }
}

function decodeJpeg(jpeg, file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    return fail(`${file}: cannot read: ${e.message}`);
  }
  try {
    return jpeg.decode(buf, { useTArray: true, formatAsRGBA: false });
  } catch (e) {
    return fail(`${file}: not a JPEG jpeg-js can decode: ${e.message || e}`);
  }
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const { tf, faceapi, jpeg, modelDir } = loadPackages(a.deps);
  await tf.setBackend('cpu');
  await tf.ready();
  if (tf.getBackend() !== 'cpu') fail(`tfjs backend is ${tf.getBackend()}, not cpu`);
  const net = faceapi.nets.tinyFaceDetector;
  await net.loadFromDisk(modelDir);

  const img = decodeJpeg(jpeg, a.image);
  const pixels = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32');

  // The network's input and output, seen where face-api's forward pass
  // hands the normalized batch to the separable-conv body.
  const seen = {};
  const body = net.runMobilenet.bind(net);
  net.runMobilenet = (x, params) => {
    const out = body(x, params);
    seen.input = { shape: x.shape, data: x.dataSync().slice() };
    seen.head = { shape: out.shape, data: out.dataSync().slice() };
    return out;
  };
  const opts = new faceapi.TinyFaceDetectorOptions({ inputSize: a.size, scoreThreshold: a.scoreThreshold });
  const dets = await net.locateFaces(pixels, opts);
  if (!seen.input) fail('face-api did not run the separable-conv body (runMobilenet)');

  fs.mkdirSync(a.outDir, { recursive: true });
  const [, s, , c] = seen.input.shape;
  writeNpy(path.join(a.outDir, 'input.npy'), [1, c, s, s], nhwcToNchw(seen.input.data, s, s, c));
  const [, n, , hc] = seen.head.shape;
  writeNpy(path.join(a.outDir, 'head.npy'), [1, hc, n, n], nhwcToNchw(seen.head.data, n, n, hc));
  const boxes = dets.map((d) => ({ x: d.box.x, y: d.box.y, w: d.box.width, h: d.box.height, score: d.score }));
  const doc = { image: path.basename(a.image), width: img.width, height: img.height,
    input_size: a.size, score_threshold: a.scoreThreshold, boxes };
  const out = path.join(a.outDir, 'boxes.json');
  fs.writeFileSync(`${out}.tmp`, `${JSON.stringify(doc, null, 1)}\n`);
  fs.renameSync(`${out}.tmp`, out);
  process.stdout.write(`faceapi_ref.js: ${path.basename(a.image)} ${img.width}x${img.height}, ` +
    `input ${s}, head ${hc}x${n}x${n}, ${boxes.length} faces\n`);
  for (const b of boxes) {
    process.stdout.write(`  face ${b.score.toFixed(3)} at x ${b.x.toFixed(1)} y ${b.y.toFixed(1)} ` +
      `w ${b.w.toFixed(1)} h ${b.h.toFixed(1)}\n`);
  }
}

main().catch((e) => fail(e.stack || String(e)));
