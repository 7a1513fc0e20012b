# RUN: KILN
# TIMEOUT: 60
# The PP-OCRv4 recognizer (SVTR neck, attention, dynamic width) at
# 1,3,48,320 in fp32 against onnxruntime on darknet's kite.jpg: within 1e-4
# relative L2 (2.1e-6 measured), 40 time steps of 6625 classes.
. $HERE/lib.sh
ocr_need
ocr_fp32 $REC 1,3,48,320 kite 1e-4 | tee $TMP/out.txt
grep -q '^output 0 softmax_11.tmp_0 f32\[1,40,6625\]' $TMP/out.txt
