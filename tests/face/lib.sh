# Shared by the face cases (sourced): the npm packages' folders, the skip
# when they are absent, and the fixture's folder.
FACEAPI=$KILN_DEPS/node_modules/@vladmandic/face-api
PHOTOS=$FACEAPI/demo
REF=$WORK/ref   # the ref case's own folder (its TMP)
# face_need_npm: exit 77 (ctest: skipped), saying why, unless face-api,
# @tensorflow/tfjs and jpeg-js are installed under KILN_DEPS.
face_need_npm() {
    local p
    for p in @vladmandic/face-api/model/tiny_face_detector_model.bin @tensorflow/tfjs/package.json \
             @tensorflow/tfjs-backend-wasm/package.json jpeg-js/package.json; do
        if [ ! -f "$KILN_DEPS/node_modules/$p" ]; then
            echo "skipped: $KILN_DEPS/node_modules/$p missing (npm packages of scripts/install-deps.sh)"
            exit 77
        fi
    done
}
