# RUN: KILN
# TIMEOUT: 60
# The direction classifier (PP-OCR mobile v2.0 cls, dynamic [?,3,?,?]) at
# 1,3,48,192 in fp32 against onnxruntime on darknet's kite.jpg: within 1e-5
# relative L2 (6.4e-7 measured).
. $HERE/lib.sh
ocr_need
ocr_fp32 $CLS 1,3,48,192 kite 1e-5 | tee $TMP/out.txt
grep -q '^output 0 softmax_0.tmp_0 f32\[1,2\]' $TMP/out.txt
