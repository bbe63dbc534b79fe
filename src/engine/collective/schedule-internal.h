/* schedule-internal.h — the schedule object shared by schedule.c (request
 * sets, paths, the check) and schedule-color.c (the colourings). */
#ifndef FLITLAB_SCHEDULE_INTERNAL_H
#define FLITLAB_SCHEDULE_INTERNAL_H

#include "flitlab.h"

struct FlSchedule {
    const FlTopology *t;
    int mesh;                  /* 1 on myrinet-mesh, 0 on myrinet-line */
    int cols, rows;            /* switches along x and y (rows = 1 on a line) */
    int n;                     /* requests */
    FlScheduleRequest *reqs;
    int *src_x, *src_y;        /* switch coordinates of each request's ends */
    int *dst_x, *dst_y;
    int *path_start;           /* n + 1 offsets into path */
    int *path;                 /* the channels of every path, request after request */
    int nchannels;
    int *load;                 /* requests per channel */
    int *on_start;             /* nchannels + 1 offsets into on */
    int *on;                   /* the requests on each channel */
    int l_max;
};

/* Colours the requests one at a time in `order` (a permutation of 0..n-1),
 * each with the smallest colour no already coloured request sharing a
 * channel with it has. Returns the number of colours, or -1 out of memory. */
int fl__schedule_first_fit(const FlSchedule *s, const int *order, int *colors);

#endif /* FLITLAB_SCHEDULE_INTERNAL_H */
