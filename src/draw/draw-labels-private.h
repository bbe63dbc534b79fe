/* draw-labels-private.h — placing labels so that none covers another
 * (draw-labels.c): the switch numbers of fl_draw_topology(), and the
 * (h, v), channel direction and cycle labels of the routing overlays.
 *
 * A greedy placement: each label in turn takes the first of its candidate
 * places that meets no box already taken (a node, an arrow, a label placed
 * before it), or is left out. Boxes are kept in a grid of buckets over the
 * picture, so a test costs the few boxes near the candidate, not all.
 *
 * Not a public header; functions with external linkage carry the fl__draw_
 * prefix, as in draw-private.h.
 */
#ifndef FLITLAB_DRAW_LABELS_PRIVATE_H
#define FLITLAB_DRAW_LABELS_PRIVATE_H

#include "draw-private.h"

/* A switch number placed, drawn once the overlays are (so that nothing
 * drawn over the network covers it). */
typedef struct PlacedNumber {
    double x, y;                /* where its text starts, on the baseline */
    int number;
    int inside;                 /* in its square (white), or beside it */
} PlacedNumber;

struct Labels {
    Box area;                   /* the buckets cover this; boxes beyond it meet nothing */
    double cell;
    int cols, rows;
    int *head;                  /* per bucket: its first entry, -1 for none */
    struct LabelEntry {
        int box, next;
    } *entries;
    int nentries, entries_cap;
    Box *boxes;
    int nboxes, boxes_cap;
    /* The labels placed (not the obstacles), for fl_draw_routing_labels(). */
    FlDrawLabelBox *record;
    int nrecord, record_max, recorded;
    /* Switch numbers placed but not yet drawn, and their fonts. */
    PlacedNumber *numbers;
    int nnumbers;
    double inside_font, outside_font;
};

/* An empty set over area (the clip), with buckets of cell device units.
 * Release with fl__draw_labels_clear(). Out of memory, every test says
 * "free" and nothing is recorded: labels may overlap, but are drawn. */
void fl__draw_labels_init(Labels *L, const Box *area, double cell);
void fl__draw_labels_clear(Labels *L);

/* Whether b meets no box of L. */
int fl__draw_labels_free(const Labels *L, const Box *b);

/* Takes b: an obstacle (label 0: a node, an arrow) or a label drawn
 * (recorded). */
void fl__draw_labels_take(Labels *L, const Box *b, int label);

/* The first of the n candidates that is free, taken as a label; -1 when
 * none is (the label is left out). */
int fl__draw_labels_place(Labels *L, const Box *cands, int n);

/* Every shown node's glyph as an obstacle. */
void fl__draw_labels_take_nodes(Labels *L, const Geom *g);

/* A box w x h whose centre is (x, y). */
static inline Box box_around(double x, double y, double w, double h)
{
    Box b = { x - w / 2, y - h / 2, x + w / 2, y + h / 2 };
    return b;
}

/* Places every shown switch's number (its label, fl_topology_node_label())
 * into L: in its square when the number fits there at a readable size,
 * else beside it, at one of eight places around it clear of the nodes and
 * the labels placed so far, when the switch is large enough on screen to
 * be told apart (so zooming in brings numbers back). text_k scales the
 * type (presenter mode). Call fl__draw_switch_numbers() to draw them. */
void fl__draw_place_switch_numbers(cairo_t *cr, Labels *L, const Geom *g, double text_k);

/* Draws the numbers placed: in the squares in white, beside them in the
 * switches' border colour (dark: light) on a halo of the background. */
void fl__draw_switch_numbers(cairo_t *cr, const Labels *L, int dark);

/* fl_draw_topology() with its switch numbers placed into L (with every
 * node shown as an obstacle) but not drawn: the caller draws them with
 * fl__draw_switch_numbers() over what it draws on the network. With L
 * NULL, fl_draw_topology() itself. */
void fl__draw_topology_labelled(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                                Labels *L);

#endif /* FLITLAB_DRAW_LABELS_PRIVATE_H */
