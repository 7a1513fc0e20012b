/*
 * region_decode: decode.c on a hand-made region head in the configuration of
 * face-api's tiny face detector (5 anchors in grid cells, no class entries,
 * --resize pad, IoU threshold 0.4) against boxes worked out by hand with
 * face-api's formulas for a 1920x1350 picture and a 320x320 input: the
 * picture covers 320 x round(1350 / 6) = 225 rows, so y is scaled by 320/225.
 * Prints the boxes; exit 1 when one differs by more than 0.05 pixel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kiln_driver.h"

static const float anchors0[] = {1.603231f, 2.094468f, 6.041143f, 7.080126f, 2.882459f,
                                 3.518061f, 4.266906f, 5.178857f, 9.041765f, 10.66308f};

const KdModelInfo kd_model = {
    .name = "face",
    .ninputs = 1,
    .noutputs = 1,
    .in = {{"input", 4, {1, 3, 320, 320}}},
    .out = {{"head", 4, {1, 25, 10, 10}}},
    .pre = {.mean = {0}, .std = {1, 1, 1, 1}, .scale = 0, .pad = 1},
    .det = {.kind = KD_DETECT_REGION, .classes = 0, .nanchors = {5}, .anchors = {anchors0},
            .score_threshold = 0.5f, .iou_threshold = 0.4f},
};

int kd_model_run(KdRun *r, const float *const *in, float *const *out, int ms, char *err)
{
    (void)r, (void)in, (void)out, (void)ms, (void)err;
    return -1;
}

/* Entry k of anchor a at (row, col) of the 10x10 head. */
static float *at(float *x, int a, int k, int row, int col)
{
    return x + ((a * 5 + k) * 10 + row) * 10 + col;
}

static int near(float got, double want)
{
    return fabs(got - want) < 0.05;
}

int main(void)
{
    float *x = malloc(sizeof *x * 25 * 100);
    const float *outs[1] = {x};
    KdBox *b;
    char err[KD_ERR];
    int n, i, bad = 0;
    double sy = 320.0 / 225.0 * 1350.0; /* y: to unpadded fraction, then pixels */
    /* want[i]: x0, y0, x1, y1, score */
    double want[2][5] = {
        {(0.45 - 0.6041143 / 2) * 1920, (0.35 - 0.7080126 / 4) * sy, (0.45 + 0.6041143 / 2) * 1920,
         (0.35 + 0.7080126 / 4) * sy, 1 / (1 + exp(-2.0))},
        {(0.85 - 0.1603231 / 2) * 1920, (0.55 - 0.2094468 / 2) * sy, (0.85 + 0.1603231 / 2) * 1920,
         (0.55 + 0.2094468 / 2) * sy, 1 / (1 + exp(-1.0))}};
    for (i = 0; i < 25 * 100; i++)
        x[i] = -10.0f; /* objectness logit -10: no box */
    /* anchor 1 at row 3, col 4: centre (0.45, 0.35), w = 6.041143 / 10, h = half of 7.080126 / 10 */
    *at(x, 1, 0, 3, 4) = 0, *at(x, 1, 1, 3, 4) = 0, *at(x, 1, 2, 3, 4) = 0;
    *at(x, 1, 3, 3, 4) = logf(0.5f), *at(x, 1, 4, 3, 4) = 2.0f;
    /* anchor 3 at the same cell, a little lower score, overlapping: dropped by NMS */
    *at(x, 3, 0, 3, 4) = 0, *at(x, 3, 1, 3, 4) = 0, *at(x, 3, 2, 3, 4) = 0.3f;
    *at(x, 3, 3, 3, 4) = -0.3f, *at(x, 3, 4, 3, 4) = 1.5f;
    /* anchor 0 at row 5, col 8, apart: kept */
    *at(x, 0, 0, 5, 8) = 0, *at(x, 0, 1, 5, 8) = 0, *at(x, 0, 2, 5, 8) = 0;
    *at(x, 0, 3, 5, 8) = 0, *at(x, 0, 4, 5, 8) = 1.0f;
    /* exactly at the threshold: obj logit 0 is score 0.5, not above it */
    *at(x, 2, 4, 5, 5) = 0;
    if (kd_decode(outs, kd_model.out, 1, 1920, 1350, &b, &n, err) < 0) {
        fprintf(stderr, "region_decode: %s\n", err);
        return 1;
    }
    for (i = 0; i < n; i++)
        printf("box %d: %.2f %.2f %.2f %.2f score %.4f class %d\n", i, b[i].x0, b[i].y0, b[i].x1,
               b[i].y1, b[i].score, b[i].cls);
    bad = n != 2;
    for (i = 0; i < n && i < 2; i++)
        bad |= !near(b[i].x0, want[i][0]) || !near(b[i].y0, want[i][1]) ||
               !near(b[i].x1, want[i][2]) || !near(b[i].y1, want[i][3]) ||
               fabs(b[i].score - want[i][4]) > 1e-5 || b[i].cls != 0;
    for (i = 0; i < 2; i++)
        printf("want %d: %.2f %.2f %.2f %.2f score %.4f\n", i, want[i][0], want[i][1], want[i][2],
               want[i][3], want[i][4]);
    free(b);
    free(x);
    return bad;
}
