/* lesson.c — reads a lesson file (flitlab-lesson.h) with libxml2 and checks it
 * against the engine.
 *
 * The parser never loads a DTD, never expands external entities and never
 * touches the network; a document with a DOCTYPE is refused outright, which
 * also rules out entity expansion bombs. Every element and attribute is
 * checked against the tables below, so a teacher's typo is an error with its
 * line rather than a step silently missing.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "flitlab-lesson.h"

static const char *const tab_names[] = {
    [FL_LESSON_TAB_NETWORK] = "network",   [FL_LESSON_TAB_METRICS] = "metrics",
    [FL_LESSON_TAB_ROUTING] = "routing",   [FL_LESSON_TAB_SIMULATE] = "simulate",
    [FL_LESSON_TAB_COLLECTIVES] = "collectives",
    [FL_LESSON_TAB_EXPERIMENTS] = "experiments",
};
#define N_TABS ((int)(sizeof tab_names / sizeof tab_names[0]))

const char *fl_lesson_tab_name(FlLessonTab tab)
{
    return (int)tab > 0 && (int)tab < N_TABS ? tab_names[tab] : NULL;
}

static const char *const collective_names[] = {
    [FL_LESSON_COLLECTIVE_MULTICAST] = "multicast",
    [FL_LESSON_COLLECTIVE_EXCHANGE] = "exchange",
    [FL_LESSON_COLLECTIVE_SCHEDULE] = "schedule",
};
#define N_COLLECTIVES ((int)(sizeof collective_names / sizeof collective_names[0]))

const char *fl_lesson_collective_name(FlLessonCollectiveKind kind)
{
    return (int)kind > 0 && (int)kind < N_COLLECTIVES ? collective_names[kind] : NULL;
}

/* ---- messages ------------------------------------------------------------ */

typedef struct Parse {
    const char *label;
    FlError *err;
    FlLesson *lesson;
} Parse;

static int line_of(const xmlNode *n)
{
    long line = xmlGetLineNo(n);
    return line > 0 && line < INT_MAX ? (int)line : 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int fail_at(FlError *err, int code, const char *label, int line, const char *fmt, ...)
{
    char what[FL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    /* fmt is a msgid (po/meson.build extracts fail_at's and FAIL's). */
    vsnprintf(what, sizeof what, fl_gettext(fmt), ap);
    va_end(ap);
    return fl_error_set(err, code, "%s:%d: %s", label, line, what);
}

#define FAIL(p, node, ...) fail_at((p)->err, FL_EPARSE, (p)->label, line_of(node), __VA_ARGS__)

/* ---- text ---------------------------------------------------------------- */

/* Collapses white space as xgettext does for ITS text: one space for every
 * run, none at either end. In place. */
static void normalize_space(char *s)
{
    char *w = s;
    int space = 0;
    for (const char *r = s; *r; r++) {
        if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') {
            space = w != s;
            continue;
        }
        if (space)
            *w++ = ' ';
        space = 0;
        *w++ = *r;
    }
    *w = '\0';
}

static char *dup_text(const xmlChar *x)
{
    char *s = strdup(x ? (const char *)x : "");
    if (s)
        normalize_space(s);
    return s;
}

static int is_blank(const xmlChar *s)
{
    for (; s && *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
}

/* The plain text of a leaf element (title, p, question...), which may hold
 * no element; empty text is refused. */
static int leaf_text(Parse *p, const xmlNode *e, char **out)
{
    for (const xmlNode *c = e->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            return FAIL(p, c, "<%s> holds plain text only, not <%s>", (const char *)e->name,
                        (const char *)c->name);
    xmlChar *content = xmlNodeGetContent(e);
    char *s = dup_text(content);
    xmlFree(content);
    if (!s)
        return fl_error_set(p->err, FL_ENOMEM, "out of memory");
    const char *special = strpbrk(s, "&<>");
    if (!*s || special) {
        int c = special ? *special : 0;
        free(s);
        if (!c)
            return FAIL(p, e, "<%s> is empty", (const char *)e->name);
        return FAIL(p, e, "<%s> holds '%c', which xgettext writes escaped, so its translation "
                    "would not be found: write words or an arrow (→) instead",
                    (const char *)e->name, c);
    }
    *out = s;
    return FL_OK;
}

/* ---- attributes ---------------------------------------------------------- */

/* Refuses an attribute of e not in allowed (NULL-terminated), and one in
 * required that is missing. */
static int check_attributes(Parse *p, const xmlNode *e, const char *const *allowed,
                            const char *const *required)
{
    for (const xmlAttr *a = e->properties; a; a = a->next) {
        int known = 0;
        for (int i = 0; allowed && allowed[i]; i++)
            known |= !a->ns && strcmp((const char *)a->name, allowed[i]) == 0;
        if (!known)
            return FAIL(p, e, "<%s> has no attribute '%s'", (const char *)e->name,
                        (const char *)a->name);
    }
    for (int i = 0; required && required[i]; i++)
        if (!xmlHasProp(e, (const xmlChar *)required[i]))
            return FAIL(p, e, "<%s> needs the attribute '%s'", (const char *)e->name,
                        required[i]);
    return FL_OK;
}

/* An attribute's value, white space collapsed; NULL when absent. */
static int attr_text(Parse *p, const xmlNode *e, const char *name, char **out)
{
    *out = NULL;
    xmlChar *v = xmlGetProp(e, (const xmlChar *)name);
    if (!v)
        return FL_OK;
    *out = dup_text(v);
    xmlFree(v);
    return *out ? FL_OK : fl_error_set(p->err, FL_ENOMEM, "out of memory");
}

static int parse_label(const char *word, const char **end, int *out)
{
    char *e;
    errno = 0;
    long v = strtol(word, &e, 10);
    if (e == word || errno || v < 0 || v > INT_MAX - 1 || *word == '+' || *word == '-')
        return -1;
    *end = e;
    *out = (int)v;
    return 0;
}

/* Parses "0 1 2" (sep 0) or "0-1 7-0" (sep '-' or '>') into a malloc'd list. */
static int parse_list(Parse *p, const xmlNode *e, const char *attr, char sep, void **out,
                      int *n)
{
    char *text;
    int rc = attr_text(p, e, attr, &text);
    if (rc || !text)
        return rc;
    size_t size = sep ? sizeof(FlLessonPair) : sizeof(int);
    void *list = calloc(FL_LESSON_MAX_HIGHLIGHT, size);
    if (!list) {
        free(text);
        return fl_error_set(p->err, FL_ENOMEM, "out of memory");
    }
    int count = 0;
    for (char *w = strtok(text, " "); w; w = strtok(NULL, " ")) {
        const char *end;
        int a, b = 0;
        int bad = parse_label(w, &end, &a);
        if (!bad && sep)
            bad = *end != sep || parse_label(end + 1, &end, &b);
        if (bad || *end) {
            rc = FAIL(p, e, "%s: '%s' is not %s", attr, w,
                      !sep ? "a switch number" : sep == '-' ? "a link A-B" : "a channel A>B");
            break;
        }
        if (count == FL_LESSON_MAX_HIGHLIGHT) {
            rc = FAIL(p, e, "%s: more than %d items", attr, FL_LESSON_MAX_HIGHLIGHT);
            break;
        }
        if (sep)
            ((FlLessonPair *)list)[count] = (FlLessonPair){ a, b };
        else
            ((int *)list)[count] = a;
        count++;
    }
    free(text);
    if (rc) {
        free(list);
        return rc;
    }
    *out = list;
    *n = count;
    return FL_OK;
}

/* ---- elements ------------------------------------------------------------ */

/* Non-blank text where only elements belong is a mistake (text outside <p>). */
static int check_stray_text(Parse *p, const xmlNode *c, const xmlNode *parent)
{
    if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
        && !is_blank(c->content))
        return FAIL(p, c, "text directly inside <%s>: put it in an element such as <p>",
                    (const char *)parent->name);
    return FL_OK;
}

static int is_named(const xmlNode *e, const char *name)
{
    return strcmp((const char *)e->name, name) == 0;
}

/* Sets *slot from a leaf element, refusing a second one. */
static int once_text(Parse *p, const xmlNode *e, char **slot)
{
    if (*slot)
        return FAIL(p, e, "a second <%s>", (const char *)e->name);
    return check_attributes(p, e, NULL, NULL) ? p->err->code : leaf_text(p, e, slot);
}

static int parse_show(Parse *p, const xmlNode *e, FlLessonStep *s)
{
    static const char *const attrs[] = { "tab", NULL };
    if (s->tab)
        return FAIL(p, e, "a second <show>");
    int rc = check_attributes(p, e, attrs, attrs);
    if (rc)
        return rc;
    xmlChar *v = xmlGetProp(e, (const xmlChar *)"tab");
    for (int i = 1; i < N_TABS; i++)
        if (strcmp((const char *)v, tab_names[i]) == 0)
            s->tab = (FlLessonTab)i;
    if (!s->tab)
        rc = FAIL(p, e, "unknown tab '%s' (network, metrics, routing, simulate, collectives "
                  "or experiments)", (const char *)v);
    xmlFree(v);
    return rc;
}

static int parse_highlight(Parse *p, const xmlNode *e, FlLessonStep *s)
{
    static const char *const attrs[] = { "nodes", "links", "channels", NULL };
    if (s->highlight_line)
        return FAIL(p, e, "a second <highlight>");
    s->highlight_line = line_of(e);
    int rc = check_attributes(p, e, attrs, NULL);
    if (!rc)
        rc = parse_list(p, e, "nodes", 0, (void **)&s->nodes, &s->n_nodes);
    if (!rc)
        rc = parse_list(p, e, "links", '-', (void **)&s->links, &s->n_links);
    if (!rc)
        rc = parse_list(p, e, "channels", '>', (void **)&s->channels, &s->n_channels);
    return rc;
}

static int parse_collective(Parse *p, const xmlNode *e, FlLessonStep *s)
{
    static const char *const allowed[] = { "kind", "algorithm", "options", NULL };
    static const char *const required[] = { "kind", "algorithm", NULL };
    FlLessonCollective *c = &s->collective;
    if (c->line)
        return FAIL(p, e, "a second <collective>");
    c->line = line_of(e);
    char *kind = NULL;
    int rc = check_attributes(p, e, allowed, required);
    if (!rc)
        rc = attr_text(p, e, "kind", &kind);
    for (int i = 1; !rc && i < N_COLLECTIVES; i++)
        if (strcmp(kind, collective_names[i]) == 0)
            c->kind = (FlLessonCollectiveKind)i;
    if (!rc && !c->kind)
        rc = FAIL(p, e, "unknown collective kind '%s' (multicast, exchange or schedule)", kind);
    free(kind);
    if (!rc)
        rc = attr_text(p, e, "algorithm", &c->algorithm);
    if (!rc)
        rc = attr_text(p, e, "options", &c->options);
    return rc;
}

static int add_paragraph(Parse *p, const xmlNode *e, FlLessonStep *s)
{
    char **grown = realloc(s->paragraphs, (size_t)(s->n_paragraphs + 1) * sizeof *grown);
    if (!grown)
        return fl_error_set(p->err, FL_ENOMEM, "out of memory");
    s->paragraphs = grown;
    int rc = check_attributes(p, e, NULL, NULL);
    if (!rc)
        rc = leaf_text(p, e, &s->paragraphs[s->n_paragraphs]);
    if (!rc)
        s->n_paragraphs++;
    return rc;
}

static int parse_step_child(Parse *p, const xmlNode *c, FlLessonStep *s)
{
    if (is_named(c, "title"))
        return once_text(p, c, &s->title);
    if (is_named(c, "p"))
        return add_paragraph(p, c, s);
    if (is_named(c, "show"))
        return parse_show(p, c, s);
    if (is_named(c, "highlight"))
        return parse_highlight(p, c, s);
    if (is_named(c, "collective"))
        return parse_collective(p, c, s);
    if (is_named(c, "question"))
        return once_text(p, c, &s->question);
    if (is_named(c, "answer"))
        return once_text(p, c, &s->answer);
    return FAIL(p, c, "unknown element <%s> in <step> (title, p, show, highlight, collective, "
                "question, answer)", (const char *)c->name);
}

static int parse_step(Parse *p, const xmlNode *e)
{
    FlLesson *l = p->lesson;
    if (l->n_steps == FL_LESSON_MAX_STEPS)
        return FAIL(p, e, "more than %d steps", FL_LESSON_MAX_STEPS);
    int rc = check_attributes(p, e, NULL, NULL);
    if (rc)
        return rc;
    FlLessonStep *grown = realloc(l->steps, (size_t)(l->n_steps + 1) * sizeof *grown);
    if (!grown)
        return fl_error_set(p->err, FL_ENOMEM, "out of memory");
    l->steps = grown;
    FlLessonStep *s = &l->steps[l->n_steps++];
    memset(s, 0, sizeof *s);
    s->line = line_of(e);
    for (const xmlNode *c = e->children; c && !rc; c = c->next)
        rc = c->type == XML_ELEMENT_NODE ? parse_step_child(p, c, s)
                                         : check_stray_text(p, c, e);
    if (rc)
        return rc;
    if (!s->title)
        return FAIL(p, e, "step %d has no <title>", l->n_steps);
    if (!s->n_paragraphs)
        return FAIL(p, e, "step %d has no text: write it in <p> elements", l->n_steps);
    if (s->question && !s->answer)
        return FAIL(p, e, "step %d asks a <question> with no <answer>", l->n_steps);
    if (s->answer && !s->question)
        return FAIL(p, e, "step %d has an <answer> with no <question>", l->n_steps);
    return FL_OK;
}

static int parse_network(Parse *p, const xmlNode *e)
{
    static const char *const attrs[] = { "spec", NULL };
    FlLesson *l = p->lesson;
    if (l->network)
        return FAIL(p, e, "a second <network>");
    int rc = check_attributes(p, e, attrs, attrs);
    if (!rc)
        rc = attr_text(p, e, "spec", &l->network);
    l->network_line = line_of(e);
    return rc;
}

static int parse_routing(Parse *p, const xmlNode *e)
{
    static const char *const allowed[] = { "name", "options", NULL };
    static const char *const required[] = { "name", NULL };
    FlLesson *l = p->lesson;
    if (l->routing)
        return FAIL(p, e, "a second <routing>");
    int rc = check_attributes(p, e, allowed, required);
    if (!rc)
        rc = attr_text(p, e, "name", &l->routing);
    if (!rc)
        rc = attr_text(p, e, "options", &l->routing_options);
    l->routing_line = line_of(e);
    return rc;
}

static int parse_lesson_child(Parse *p, const xmlNode *c)
{
    FlLesson *l = p->lesson;
    if (is_named(c, "title"))
        return once_text(p, c, &l->title);
    if (is_named(c, "summary"))
        return once_text(p, c, &l->summary);
    if (is_named(c, "network"))
        return parse_network(p, c);
    if (is_named(c, "routing"))
        return parse_routing(p, c);
    if (is_named(c, "settings")) {
        l->settings_line = line_of(c);
        return once_text(p, c, &l->settings);
    }
    if (is_named(c, "step"))
        return parse_step(p, c);
    return FAIL(p, c, "unknown element <%s> in <lesson> (title, summary, network, routing, "
                "settings, step)", (const char *)c->name);
}

static int parse_id(Parse *p, const xmlNode *root)
{
    FlLesson *l = p->lesson;
    int rc = attr_text(p, root, "id", &l->id);
    if (rc)
        return rc;
    if (!l->id[0] || strlen(l->id) > 64
        || strspn(l->id, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(l->id))
        return FAIL(p, root, "id '%s' must be 1 to 64 lowercase letters, digits and '-'",
                    l->id);
    xmlChar *v = xmlGetProp(root, (const xmlChar *)"version");
    char *end;
    long version = strtol((const char *)v, &end, 10);
    int bad = end == (const char *)v || *end || version < 1;
    xmlFree(v);
    if (bad)
        return FAIL(p, root, "version must be a whole number from 1");
    if (version > FL_LESSON_FORMAT_VERSION)
        return fail_at(p->err, FL_EVERSION, p->label, line_of(root),
                       "lesson format version %ld is newer than this Flitlab reads (%d)",
                       version, FL_LESSON_FORMAT_VERSION);
    l->version = (int)version;
    return FL_OK;
}

static int parse_root(Parse *p, const xmlDoc *doc)
{
    static const char *const attrs[] = { "id", "version", NULL };
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (doc->intSubset || doc->extSubset)
        return fail_at(p->err, FL_EPARSE, p->label, root ? line_of(root) : 1,
                       "a lesson may not have a DOCTYPE");
    if (!root || !is_named(root, "lesson") || root->ns)
        return fail_at(p->err, FL_EPARSE, p->label, root ? line_of(root) : 1,
                       "the document is not a <lesson>");
    int rc = check_attributes(p, root, attrs, attrs);
    if (!rc)
        rc = parse_id(p, root);
    for (const xmlNode *c = root->children; c && !rc; c = c->next)
        rc = c->type == XML_ELEMENT_NODE ? parse_lesson_child(p, c)
                                         : check_stray_text(p, c, root);
    if (rc)
        return rc;
    FlLesson *l = p->lesson;
    if (!l->title)
        return FAIL(p, root, "the lesson has no <title>");
    if (!l->network)
        return FAIL(p, root, "the lesson has no <network spec=\"...\"/>");
    if (!l->n_steps)
        return FAIL(p, root, "the lesson has no <step>");
    return FL_OK;
}

int fl_lesson_parse(const char *xml, size_t len, const char *label, FlLesson **out,
                    FlError *err)
{
    FlError local;
    if (!err)
        err = &local;
    if (!label)
        label = "lesson";
    *out = NULL;
    if (len > FL_LESSON_MAX_BYTES)
        return fl_error_set(err, FL_ERANGE, "%s: %zu bytes is more than a lesson may hold "
                            "(%zu)", label, len, FL_LESSON_MAX_BYTES);
    Parse p = { label, err, calloc(1, sizeof(FlLesson)) };
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!p.lesson || !ctxt || !(p.lesson->label = strdup(label))) {
        xmlFreeParserCtxt(ctxt);
        fl_lesson_free(p.lesson);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, xml, (int)len, label, NULL,
                                      XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR
                                          | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
    int rc;
    if (!doc || !ctxt->wellFormed) {
        const xmlError *e = xmlCtxtGetLastError(ctxt);
        char msg[256] = "malformed XML";
        if (e && e->message) {
            snprintf(msg, sizeof msg, "malformed XML: %s", e->message);
            msg[strcspn(msg, "\n")] = '\0';
        }
        rc = fail_at(err, FL_EPARSE, label, e ? e->line : 0, "%s", msg);
    } else {
        rc = parse_root(&p, doc);
    }
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    if (rc) {
        fl_lesson_free(p.lesson);
        return rc;
    }
    *out = p.lesson;
    return FL_OK;
}

int fl_lesson_read(const char *path, FlLesson **out, FlError *err)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return fl_error_set(err, FL_EIO, "%s: %s", path, strerror(errno));
    char *buf = malloc(FL_LESSON_MAX_BYTES + 1);
    if (!buf) {
        fclose(fp);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    size_t n = fread(buf, 1, FL_LESSON_MAX_BYTES + 1, fp);
    int failed = ferror(fp);
    fclose(fp);
    int rc = failed ? fl_error_set(err, FL_EIO, "%s: cannot be read", path)
                    : fl_lesson_parse(buf, n, path, out, err);
    free(buf);
    return rc;
}

void fl_lesson_free(FlLesson *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n_steps; i++) {
        FlLessonStep *s = &l->steps[i];
        free(s->title);
        for (int k = 0; k < s->n_paragraphs; k++)
            free(s->paragraphs[k]);
        free(s->paragraphs);
        free(s->nodes);
        free(s->links);
        free(s->channels);
        free(s->question);
        free(s->answer);
        free(s->collective.algorithm);
        free(s->collective.options);
    }
    free(l->steps);
    free(l->label);
    free(l->id);
    free(l->title);
    free(l->summary);
    free(l->network);
    free(l->routing);
    free(l->routing_options);
    free(l->settings);
    free(l);
}

/* ---- checks against the engine ------------------------------------------- */

int fl_lesson_topology(const FlLesson *l, FlTopology **out, FlError *err)
{
    FlError e = { 0 };
    int rc = fl_topology_from_spec(l->network, out, &e);
    if (rc)
        return fail_at(err, rc, l->label, l->network_line, "network '%s': %s", l->network,
                       e.message);
    return FL_OK;
}

/* Calls set(target, key, value) for every KEY=VALUE word of words. */
typedef int (*SetFunc)(void *target, const char *key, const char *value, FlError *err);

static int each_setting(const FlLesson *l, const char *words, int line, const char *what,
                        SetFunc set, void *target, FlError *err)
{
    char *copy = strdup(words ? words : "");
    if (!copy)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    int rc = FL_OK;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && !rc; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (!eq || eq == w) {
            rc = fail_at(err, FL_EPARSE, l->label, line, "%s: '%s' is not KEY=VALUE", what, w);
            break;
        }
        *eq = '\0';
        FlError e = { 0 };
        rc = set(target, w, eq + 1, &e);
        if (rc)
            fail_at(err, rc, l->label, line, "%s: %s", what, e.message);
    }
    free(copy);
    return rc;
}

typedef struct RoutingTarget {
    const FlRoutingInfo *info;
    FlRoutingOptions *opt;
} RoutingTarget;

static int set_routing_option(void *target, const char *key, const char *value, FlError *err)
{
    RoutingTarget *t = target;
    if (!fl_routing_takes(t->info, key))
        return fl_error_set(err, FL_EINVAL, "routing '%s' takes no option '%s'", t->info->name,
                            key);
    return fl_routing_options_set(t->opt, key, value, err);
}

int fl_lesson_routing_options(const FlLesson *l, FlRoutingOptions *opt, FlError *err)
{
    fl_routing_options_init(opt);
    if (!l->routing)
        return FL_OK;
    RoutingTarget t = { fl_routing_lookup(l->routing), opt };
    if (!t.info)
        return fail_at(err, FL_ENOTFOUND, l->label, l->routing_line,
                       "unknown routing '%s' (see 'flitlab route --help')", l->routing);
    int rc = each_setting(l, l->routing_options, l->routing_line, "routing options",
                          set_routing_option, &t, err);
    if (rc)
        fl_routing_options_clear(opt);
    return rc;
}

static int set_sim_setting(void *target, const char *key, const char *value, FlError *err)
{
    return fl_sim_settings_set(target, key, value, err);
}

int fl_lesson_apply_settings(const FlLesson *l, FlSimSettings *s, FlError *err)
{
    return each_setting(l, l->settings, l->settings_line, "settings", set_sim_setting, s, err);
}

/* ---- collectives -------------------------------------------------------- */

static int whole(const char *key, const char *v, long lo, long hi, long *out, FlError *err)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi)
        return fl_error_set(err, FL_EINVAL, "%s: '%s' is not a whole number from %ld to %ld", key,
                            v, lo, hi);
    *out = x;
    return FL_OK;
}

static int host_list(const char *v, FlLessonCollectiveOptions *o, FlError *err)
{
    char *copy = strdup(v);
    if (!copy)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    int rc = FL_OK;
    free(o->dests);
    o->dests = NULL;
    o->n_dests = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
        long h = 0;
        int *grown = realloc(o->dests, (size_t)(o->n_dests + 1) * sizeof *grown);
        if (!grown) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory");
            break;
        }
        o->dests = grown;
        if (!(rc = whole("dests", w, 0, INT_MAX - 1, &h, err)))
            o->dests[o->n_dests++] = (int)h;
    }
    free(copy);
    if (!rc && !o->n_dests)
        rc = fl_error_set(err, FL_EINVAL, "dests: no host given");
    return rc;
}

static const char *const pattern_names[] = { "uniform", "permutation", "hotspot", "top-down",
                                             NULL };

typedef struct CollectiveTarget {
    FlLessonCollectiveKind kind;
    FlLessonCollectiveOptions *o;
} CollectiveTarget;

/* The options each kind takes, as its command's flags are named. */
static const char *const kind_keys[][7] = {
    [FL_LESSON_COLLECTIVE_MULTICAST] = { "source", "dests", "random", "seed", "t-hold", "t-end" },
    [FL_LESSON_COLLECTIVE_EXCHANGE] = { "n", "step", "node" },
    [FL_LESSON_COLLECTIVE_SCHEDULE] = { "pattern", "random", "seed" },
};

static int set_collective_option(void *target, const char *key, const char *v, FlError *err)
{
    CollectiveTarget *t = target;
    FlLessonCollectiveOptions *o = t->o;
    int known = 0;
    for (int i = 0; kind_keys[t->kind][i]; i++)
        known |= strcmp(key, kind_keys[t->kind][i]) == 0;
    if (!known)
        return fl_error_set(err, FL_EINVAL, "the %s takes no option '%s'",
                            collective_names[t->kind], key);
    long x = 0;
    int rc = FL_OK;
    if (strcmp(key, "dests") == 0)
        return host_list(v, o, err);
    if (strcmp(key, "pattern") == 0) {
        for (int i = 0; pattern_names[i]; i++)
            if (strcmp(v, pattern_names[i]) == 0)
                o->pattern = (FlLessonPattern)i;
        if (strcmp(v, pattern_names[o->pattern]) != 0)
            return fl_error_set(err, FL_EINVAL, "pattern: '%s' is not uniform, permutation, "
                                "hotspot or top-down", v);
        return FL_OK;
    }
    if (strcmp(key, "t-hold") == 0 || strcmp(key, "t-end") == 0) {
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end || !(d >= 0 && d <= 1e15))
            return fl_error_set(err, FL_EINVAL, "%s: '%s' is not a time from 0 to 1e15", key, v);
        *(key[2] == 'h' ? &o->t_hold : &o->t_end) = d;
        return FL_OK;
    }
    if (strcmp(key, "seed") == 0) {
        if (!(rc = whole(key, v, 0, LONG_MAX, &x, err)))
            o->seed = (uint64_t)x;
        return rc;
    }
    int *slot = strcmp(key, "source") == 0 ? &o->source
                : strcmp(key, "random") == 0 ? &o->random
                : strcmp(key, "n") == 0      ? &o->n
                : strcmp(key, "step") == 0   ? &o->step
                                             : &o->node;
    if (!(rc = whole(key, v, strcmp(key, "random") == 0, INT_MAX - 1, &x, err)))
        *slot = (int)x;
    return rc;
}

void fl_lesson_collective_options_clear(FlLessonCollectiveOptions *o)
{
    free(o->dests);
    o->dests = NULL;
    o->n_dests = 0;
}

int fl_lesson_collective_options(const FlLesson *l, const FlLessonCollective *c,
                                 FlLessonCollectiveOptions *o, FlError *err)
{
    *o = (FlLessonCollectiveOptions){ .source = -1, .seed = 1, .t_hold = 20, .t_end = 55,
                                      .step = -1, .node = -1 };
    if (!fl_lesson_collective_name(c->kind))
        return fail_at(err, FL_EINVAL, l->label, c->line, "no collective");
    CollectiveTarget target = { c->kind, o };
    int rc = each_setting(l, c->options, c->line, "collective options", set_collective_option,
                          &target, err);
    const char *missing = NULL;
    if (rc)
        return rc;
    if (c->kind == FL_LESSON_COLLECTIVE_MULTICAST) {
        if (o->dests && o->random)
            missing = "dests=... or random=K, not both";
        else if (!o->dests && !o->random)
            missing = "dests=H1,H2,... (with source=H) or random=K";
        else if (o->dests && o->source < 0)
            missing = "source=H with dests";
    } else if (c->kind == FL_LESSON_COLLECTIVE_EXCHANGE && !o->n) {
        missing = "n=N";
    } else if (c->kind == FL_LESSON_COLLECTIVE_SCHEDULE && !o->random
               && o->pattern != FL_LESSON_PATTERN_TOP_DOWN) {
        missing = "random=K";
    }
    if (missing)
        return fail_at(err, FL_EINVAL, l->label, c->line, "collective options: the %s needs %s",
                       collective_names[c->kind], missing);
    return FL_OK;
}

static int check_multicast(const FlTopology *t, const FlRouting *r, const char *algorithm,
                           FlLessonCollectiveOptions *o, FlError *err)
{
    FlMulticastAlgorithm alg;
    int rc = fl_multicast_algorithm_lookup(algorithm, &alg, err);
    if (rc)
        return rc;
    if (o->random) {
        free(o->dests);
        if (!(o->dests = malloc((size_t)o->random * sizeof *o->dests)))
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        o->n_dests = o->random;
        rc = fl_multicast_random_nodes(fl_topology_host_count(t), o->random, o->seed, &o->source,
                                       o->dests, err);
    }
    FlMulticastTree *tree = NULL;
    if (!rc)
        rc = fl_multicast_tree_new(t, r, alg, o->source, o->dests, o->n_dests, o->t_hold,
                                   o->t_end, &tree, err);
    fl_multicast_tree_free(tree);
    return rc;
}

static int check_exchange(const FlLesson *l, const char *algorithm,
                          const FlLessonCollectiveOptions *o, FlError *err)
{
    FlAllToAllAlgorithm alg;
    char spec[64];
    snprintf(spec, sizeof spec, "torus:%dx%d", o->n, o->n);
    if (strcmp(l->network, spec) != 0)
        return fl_error_set(err, FL_EINVAL, "an exchange with n=%d runs on %s, not on %s", o->n,
                            spec, l->network);
    int rc = fl_alltoall_algorithm_from_name(algorithm, &alg, err);
    FlAllToAll *aa = NULL;
    if (!rc)
        rc = fl_alltoall_run(o->n, alg, &aa, err);
    if (!rc && o->step > (int)fl_alltoall_step_count(aa))
        rc = fl_error_set(err, FL_ERANGE, "step=%d: the exchange has %zu steps", o->step,
                          fl_alltoall_step_count(aa));
    if (!rc && o->node >= o->n * o->n)
        rc = fl_error_set(err, FL_ERANGE, "node=%d: the torus has %d nodes", o->node,
                          o->n * o->n);
    fl_alltoall_free(aa);
    return rc;
}

static int check_schedule(const FlTopology *t, const char *algorithm,
                          const FlLessonCollectiveOptions *o, FlError *err)
{
    int algo = fl_schedule_algo_lookup(algorithm);
    if (algo < 0)
        return fl_error_set(err, FL_ENOTFOUND, "unknown schedule algorithm '%s' (assigncolor, "
                            "greedy or exact)", algorithm);
    FlScheduleRequest *reqs = NULL;
    int n = 0, rc;
    switch (o->pattern) {
    case FL_LESSON_PATTERN_PERMUTATION:
        rc = fl_schedule_random_permutation(t, o->random, o->seed, &reqs, &n, err);
        break;
    case FL_LESSON_PATTERN_HOTSPOT:
        /* As the Schedule page draws it: host 0 hot, half the requests. */
        rc = fl_schedule_hotspot(t, o->random, 0, 0.5, o->seed, &reqs, &n, err);
        break;
    case FL_LESSON_PATTERN_TOP_DOWN:
        rc = fl_schedule_top_down(t, o->seed, &reqs, &n, err);
        break;
    default:
        rc = fl_schedule_random_uniform(t, o->random, o->seed, &reqs, &n, err);
        break;
    }
    FlSchedule *sched = NULL;
    int *colors = NULL, ncolors = 0;
    if (!rc)
        rc = fl_schedule_new(t, reqs, n, &sched, err);
    if (!rc && !(colors = malloc((size_t)(n > 0 ? n : 1) * sizeof *colors)))
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
    if (!rc)
        rc = fl_schedule_color(sched, (FlScheduleAlgo)algo, colors, &ncolors, err);
    free(colors);
    fl_schedule_free(sched);
    free(reqs);
    return rc;
}

static int check_collectives(const FlLesson *l, const FlTopology *t, const FlRouting *r,
                             FlError *err)
{
    for (int i = 0; i < l->n_steps; i++) {
        const FlLessonCollective *c = &l->steps[i].collective;
        FlLessonCollectiveOptions o;
        FlError e = { 0 };
        if (!c->kind)
            continue;
        int rc = fl_lesson_collective_options(l, c, &o, err);
        if (rc) {
            fl_lesson_collective_options_clear(&o);
            return rc;
        }
        if (c->kind == FL_LESSON_COLLECTIVE_MULTICAST)
            rc = check_multicast(t, r, c->algorithm, &o, &e);
        else if (c->kind == FL_LESSON_COLLECTIVE_EXCHANGE)
            rc = check_exchange(l, c->algorithm, &o, &e);
        else
            rc = check_schedule(t, c->algorithm, &o, &e);
        fl_lesson_collective_options_clear(&o);
        if (rc)
            return fail_at(err, rc, l->label, c->line, "step %d: %s %s: %s", i + 1,
                           collective_names[c->kind], c->algorithm, e.message);
    }
    return FL_OK;
}

/* The switch labelled label, or -1. */
static int find_switch(const FlTopology *t, int label)
{
    int node = fl_topology_find_label(t, label);
    return node >= 0 && fl_topology_node_kind(t, node) == FL_NODE_SWITCH ? node : -1;
}

static int has_link(const FlTopology *t, int a, int b)
{
    int na = find_switch(t, a), nb = find_switch(t, b);
    if (na < 0 || nb < 0)
        return 0;
    for (int port = 0; port < fl_topology_node_ports(t, na); port++)
        if (fl_topology_port_peer(t, na, port, NULL) == nb)
            return 1;
    return 0;
}

static int check_highlights(const FlLesson *l, const FlTopology *t, FlError *err)
{
    for (int i = 0; i < l->n_steps; i++) {
        const FlLessonStep *s = &l->steps[i];
        for (int k = 0; k < s->n_nodes; k++) {
            int node = fl_topology_find_label(t, s->nodes[k]);
            if (node < 0)
                return fail_at(err, FL_ENOTFOUND, l->label, s->highlight_line,
                               "step %d: the network has no switch %d", i + 1, s->nodes[k]);
            if (fl_topology_node_kind(t, node) != FL_NODE_SWITCH)
                return fail_at(err, FL_EINVAL, l->label, s->highlight_line,
                               "step %d: %d is a host, not a switch", i + 1, s->nodes[k]);
        }
        for (int k = 0; k < s->n_links; k++)
            if (!has_link(t, s->links[k].a, s->links[k].b))
                return fail_at(err, FL_ENOTFOUND, l->label, s->highlight_line,
                               "step %d: no link joins %d and %d", i + 1, s->links[k].a,
                               s->links[k].b);
        for (int k = 0; k < s->n_channels; k++)
            if (!has_link(t, s->channels[k].a, s->channels[k].b))
                return fail_at(err, FL_ENOTFOUND, l->label, s->highlight_line,
                               "step %d: no channel goes from %d to %d", i + 1,
                               s->channels[k].a, s->channels[k].b);
    }
    return FL_OK;
}

static int check_file_name(const FlLesson *l, FlError *err)
{
    size_t n = strlen(l->label), ext = strlen(".lesson");
    if (n < ext || strcmp(l->label + n - ext, ".lesson") != 0)
        return FL_OK;
    const char *base = strrchr(l->label, '/');
    base = base ? base + 1 : l->label;
    size_t id = strlen(l->id);
    if ((size_t)(l->label + n - ext - base) != id || strncmp(base, l->id, id) != 0)
        return fail_at(err, FL_EINVAL, l->label, 1, "the lesson's id is '%s': name the file "
                       "%s.lesson", l->id, l->id);
    return FL_OK;
}

int fl_lesson_check(const FlLesson *l, FlError *err)
{
    int rc = check_file_name(l, err);
    FlTopology *t = NULL;
    if (!rc)
        rc = fl_lesson_topology(l, &t, err);
    FlRouting *r = NULL;
    if (!rc && l->routing) {
        FlRoutingOptions opt;
        rc = fl_lesson_routing_options(l, &opt, err);
        FlError e = { 0 };
        if (!rc && (rc = fl_routing_new(t, l->routing, &opt, &r, &e)) != FL_OK)
            fail_at(err, rc, l->label, l->routing_line, "routing '%s' on %s: %s", l->routing,
                    l->network, e.message);
        fl_routing_options_clear(&opt);
    }
    if (!rc) {
        FlSimSettings s;
        fl_sim_settings_init(&s);
        rc = fl_lesson_apply_settings(l, &s, err);
        fl_sim_settings_clear(&s);
    }
    if (!rc)
        rc = check_highlights(l, t, err);
    if (!rc)
        rc = check_collectives(l, t, r, err);
    fl_routing_free(r);
    fl_topology_free(t);
    return rc;
}
