# RUN: KILN
# TIMEOUT: 60
# The PP-OCRv4 detector (dynamic [?,3,?,?]) at 1,3,160,160 in fp32 against
# onnxruntime on darknet's kite.jpg (the photo whose probability map is not
# all near zero: its maximum is 0.24): within 1e-4 relative L2 (2.0e-5
# measured).  On photos without text-like parts the map is below 1e-7
# everywhere, where onnxruntime's Sigmoid gives 0 for logits under about
# -17 and relative figures say nothing (docs/ocr.md).
. $HERE/lib.sh
ocr_need
ocr_fp32 $DET 1,3,160,160 kite 1e-4 | tee $TMP/out.txt
grep -q '^output 0 sigmoid_0.tmp_0 f32\[1,1,160,160\]' $TMP/out.txt
