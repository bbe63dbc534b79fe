/* draw-labels.c — labels that do not cover one another: a grid of buckets
 * of the boxes taken (nodes, arrows, labels), a greedy placement over
 * candidate places, and the switch numbers placed with it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-labels-private.h"

#define MAX_CELLS 40000      /* buckets; a larger picture gets larger ones */

void fl__draw_labels_init(Labels *L, const Box *area, double cell)
{
    memset(L, 0, sizeof *L);
    L->area = *area;
    double w = fmax(area->x2 - area->x1, 1), h = fmax(area->y2 - area->y1, 1);
    if (w / cell * (h / cell) > MAX_CELLS)
        cell = sqrt(w * h / MAX_CELLS);
    L->cell = cell;
    L->cols = (int)ceil(w / cell);
    L->rows = (int)ceil(h / cell);
    L->head = malloc(sizeof(int) * (size_t)L->cols * (size_t)L->rows);
    if (L->head)
        memset(L->head, 0xff, sizeof(int) * (size_t)L->cols * (size_t)L->rows);
}

void fl__draw_labels_clear(Labels *L)
{
    free(L->head);
    free(L->entries);
    free(L->boxes);
    free(L->numbers);
    L->head = NULL;
    L->entries = NULL;
    L->boxes = NULL;
    L->numbers = NULL;
}

/* The buckets b spans, clamped to the grid; 0 when it is off the grid. */
static int span(const Labels *L, const Box *b, int *c0, int *r0, int *c1, int *r1)
{
    if (!L->head || b->x2 < L->area.x1 || b->y2 < L->area.y1 || b->x1 > L->area.x2
        || b->y1 > L->area.y2)
        return 0;
    *c0 = (int)clamp(floor((b->x1 - L->area.x1) / L->cell), 0, L->cols - 1);
    *c1 = (int)clamp(floor((b->x2 - L->area.x1) / L->cell), 0, L->cols - 1);
    *r0 = (int)clamp(floor((b->y1 - L->area.y1) / L->cell), 0, L->rows - 1);
    *r1 = (int)clamp(floor((b->y2 - L->area.y1) / L->cell), 0, L->rows - 1);
    return 1;
}

static int boxes_meet(const Box *a, const Box *b)
{
    return a->x1 < b->x2 && b->x1 < a->x2 && a->y1 < b->y2 && b->y1 < a->y2;
}

int fl__draw_labels_free(const Labels *L, const Box *b)
{
    int c0, r0, c1, r1;
    if (!span(L, b, &c0, &r0, &c1, &r1))
        return 1;
    for (int r = r0; r <= r1; r++)
        for (int c = c0; c <= c1; c++)
            for (int e = L->head[r * L->cols + c]; e >= 0; e = L->entries[e].next)
                if (boxes_meet(b, &L->boxes[L->entries[e].box]))
                    return 0;
    return 1;
}

static int grow(void **items, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 1;
    int n = *cap ? *cap * 2 : 256;
    while (n < need)
        n *= 2;
    void *bigger = realloc(*items, size * (size_t)n);
    if (!bigger)
        return 0;
    *items = bigger;
    *cap = n;
    return 1;
}

void fl__draw_labels_take(Labels *L, const Box *b, int label)
{
    int c0, r0, c1, r1;
    if (label) {
        if (L->record && L->nrecord < L->record_max)
            L->record[L->nrecord++] =
                (FlDrawLabelBox){ b->x1, b->y1, b->x2 - b->x1, b->y2 - b->y1 };
        L->recorded++;
    }
    if (!span(L, b, &c0, &r0, &c1, &r1))
        return;
    int cells = (r1 - r0 + 1) * (c1 - c0 + 1);
    if (!grow((void **)&L->boxes, &L->boxes_cap, L->nboxes + 1, sizeof *L->boxes)
        || !grow((void **)&L->entries, &L->entries_cap, L->nentries + cells, sizeof *L->entries))
        return;
    int id = L->nboxes++;
    L->boxes[id] = *b;
    for (int r = r0; r <= r1; r++)
        for (int c = c0; c <= c1; c++) {
            int e = L->nentries++;
            L->entries[e].box = id;
            L->entries[e].next = L->head[r * L->cols + c];
            L->head[r * L->cols + c] = e;
        }
}

int fl__draw_labels_place(Labels *L, const Box *cands, int n)
{
    for (int i = 0; i < n; i++)
        if (fl__draw_labels_free(L, &cands[i])) {
            fl__draw_labels_take(L, &cands[i], 1);
            return i;
        }
    return -1;
}

void fl__draw_labels_take_nodes(Labels *L, const Geom *g)
{
    for (int n = 0; n < fl_topology_node_count(g->t); n++) {
        if (!fl__draw_node_shown(g, n))
            continue;
        double x, y, half = fl_topology_node_kind(g->t, n) == FL_NODE_SWITCH ? g->half : g->host_r;
        fl__draw_node_device(g, n, &x, &y);
        if (!box_near(&L->area, x, y, half))
            continue;
        Box b = box_around(x, y, 2 * half, 2 * half);
        fl__draw_labels_take(L, &b, 0);
    }
}

/* ------------------------------------------------------------------------ */
/* Switch numbers                                                           */
/* ------------------------------------------------------------------------ */

#define MIN_LABEL_FONT 7.5
#define MAX_LABEL_FONT 14.0
#define OUTSIDE_FONT 9.0
/* Switches drawn smaller than this (half a side, device units) are dots in
 * a crowd: their numbers could not be told apart. */
#define MIN_NUMBERED_HALF 2.5

void fl__draw_place_switch_numbers(cairo_t *cr, Labels *L, const Geom *g, double text_k)
{
    double half = g->half;
    int ns = fl_topology_switch_count(g->t), cap = 0;
    if (half < MIN_NUMBERED_HALF || ns == 0)
        return;
    double in_font = fmin(half * 0.95, MAX_LABEL_FONT * text_k);
    in_font = fmax(in_font, MIN_LABEL_FONT * text_k);
    double out_font = OUTSIDE_FONT * text_k;
    L->inside_font = in_font;
    L->outside_font = out_font;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_font_extents_t fin, fout;
    cairo_set_font_size(cr, in_font);
    cairo_font_extents(cr, &fin);
    cairo_set_font_size(cr, out_font);
    cairo_font_extents(cr, &fout);
    /* A number fits in its square when it is no wider than 0.9 of the
     * side and the type no larger than 0.6 of it. */
    int fits_height = in_font <= 1.15 * half;
    for (int i = 0; i < ns; i++) {
        int n = fl_topology_switch_node(g->t, i);
        double x, y;
        fl__draw_node_device(g, n, &x, &y);
        if (!box_near(&L->area, x, y, half + 40))
            continue;
        char text[16];
        cairo_text_extents_t te;
        int number = fl_topology_node_label(g->t, n);
        snprintf(text, sizeof text, "%d", number);
        cairo_set_font_size(cr, in_font);
        cairo_text_extents(cr, text, &te);
        PlacedNumber p = { 0, 0, number, 0 };
        if (fits_height && te.x_advance <= half * 1.8) {
            double asc = (fin.ascent - fin.descent) / 2;
            p.x = x - te.x_advance / 2;
            p.y = y + asc;
            p.inside = 1;
            Box b = { p.x + te.x_bearing, p.y + te.y_bearing, p.x + te.x_bearing + te.width,
                      p.y + te.y_bearing + te.height };
            fl__draw_labels_take(L, &b, 1);
        } else {
            cairo_set_font_size(cr, out_font);
            cairo_text_extents(cr, text, &te);
            double w = te.width + 2, h = te.height + 2, gap = 1.5, d = half + gap;
            /* Right, above right, above, above left, left, below left,
             * below, below right: the first free one. */
            double r = d + w / 2;
            double cx[8] = { r, r, 0, -r, -r, -r, 0, r };
            /* The diagonal places overlap the square's corner by 2. */
            double cy[8] = { 0, -d - h / 2 + 2, -d - h / 2, -d - h / 2 + 2, 0, d + h / 2 - 2,
                             d + h / 2, d + h / 2 - 2 };
            Box cands[8];
            for (int k = 0; k < 8; k++)
                cands[k] = box_around(x + cx[k], y + cy[k], w, h);
            int k = fl__draw_labels_place(L, cands, 8);
            if (k < 0)
                continue;
            p.x = cands[k].x1 + 1 - te.x_bearing;
            p.y = cands[k].y1 + 1 - te.y_bearing;
        }
        if (L->nnumbers == cap) {
            int ncap = cap ? 2 * cap : 64;
            PlacedNumber *bigger = realloc(L->numbers, sizeof *bigger * (size_t)ncap);
            if (!bigger)
                break;
            L->numbers = bigger;
            cap = ncap;
        }
        L->numbers[L->nnumbers++] = p;
    }
    cairo_restore(cr);
}

void fl__draw_switch_numbers(cairo_t *cr, const Labels *L, int dark)
{
    if (L->nnumbers == 0)
        return;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    /* In the squares in white; beside them on chips of the background (a
     * halo stroked around glyph outlines would cost a thousand numbers
     * tens of milliseconds), in the switches' border colour. */
    cairo_set_source_rgb(cr, 1, 1, 1);
    for (int part = 0; part < 3; part++) {
        int inside = part == 0;
        char text[16];
        cairo_set_font_size(cr, inside ? L->inside_font : L->outside_font);
        cairo_new_path(cr);
        for (int i = 0; i < L->nnumbers; i++) {
            const PlacedNumber *p = &L->numbers[i];
            if (p->inside != inside)
                continue;
            snprintf(text, sizeof text, "%d", p->number);
            if (part == 1) {
                cairo_text_extents_t te;
                cairo_text_extents(cr, text, &te);
                cairo_rectangle(cr, p->x + te.x_bearing - 1, p->y + te.y_bearing - 1,
                                te.width + 2, te.height + 2);
                continue;
            }
            cairo_move_to(cr, p->x, p->y);
            cairo_show_text(cr, text);
        }
        if (part == 0)
            continue;
        if (part == 1) {
            double bg = dark ? 0x1e / 255.0 : 1;
            cairo_set_source_rgba(cr, bg, bg, bg, 0.85);
            cairo_fill(cr);
            if (dark)
                cairo_set_source_rgb(cr, 0x99 / 255.0, 0xc1 / 255.0, 0xf1 / 255.0);
            else
                cairo_set_source_rgb(cr, 0x1a / 255.0, 0x5f / 255.0, 0xb4 / 255.0);
        }
    }
    cairo_restore(cr);
}
