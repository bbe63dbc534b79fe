/* test-gui-locale.c — the window in Korean and in Japanese, as a student
 * at home would run it.
 *
 * Scenarios (one per process, under Xvfb, with LANG set by meson.build and
 * the catalogues of the build tree through $FLITLAB_LOCALEDIR):
 *   korean    under ko_KR.UTF-8: the catalogue is read; the deadlock-ring
 *             lesson opens at its third step, its title and step in
 *             Korean; the window's own labels, the settings rows the engine
 *             describes and the routing's verdict read in Korean; writes
 *             screenshots/window-ko.png
 *   japanese  the same under ja_JP.UTF-8; writes screenshots/window-ja.png
 */
#include <locale.h>

#include <glib/gi18n.h>

#include "flitlab-routing-panel.h"
#include "gui-harness.h"

static const char *want_locale, *shot;

/* Whether text has a character outside ASCII: a translation, here. */
static gboolean
translated (const char *text)
{
  for (const char *c = text; c != NULL && *c != '\0'; c++)
    if ((unsigned char) *c >= 0x80)
      return TRUE;
  return FALSE;
}

static gboolean
step_shown (FlitlabWindow *window)
{
  return flitlab_lesson_panel_get_step (flitlab_window_get_lesson_panel (window)) == 2 && is_idle (window);
}

static void
run_locale (FlitlabWindow *window)
{
  FlitlabLessonPanel *panel = flitlab_window_get_lesson_panel (window);
  const char *messages = setlocale (LC_MESSAGES, NULL);
  const FlLesson *lesson;

  CHECK (messages != NULL && g_str_has_prefix (messages, want_locale),
         "LC_MESSAGES is %s (got %s; tools/install-deps.sh generates the locale)", want_locale,
         messages != NULL ? messages : "(null)");
  CHECK (translated (_("Routing")) && translated (fl_gettext ("Virtual channels")),
         "the catalogue is read: “Routing” reads “%s”, “Virtual channels” “%s”", _("Routing"),
         fl_gettext ("Virtual channels"));

  harness_open_lesson (window, "deadlock-ring");
  lesson = flitlab_lesson_panel_get_lesson (panel);
  if (lesson == NULL)
    return;
  CHECK (flitlab_lesson_panel_set_step (panel, 2) && wait_until (window, step_shown), "step 3 shows");
  CHECK (translated (_(lesson->title)) && shows_label (GTK_WIDGET (panel), _(lesson->title)),
         "the lesson's title shows translated: %s", _(lesson->title));
  CHECK (translated (_(lesson->steps[2].title)) && shows_label (GTK_WIDGET (panel), _(lesson->steps[2].title)),
         "the step's title shows translated: %s", _(lesson->steps[2].title));

  /* The window's labels (from its .ui files and code) and the rows the
   * engine's tables describe (through fl_gettext()). */
  CHECK (find_label (GTK_WIDGET (window), _("Deadlock-free")) != NULL, "the routing verdict reads “%s”",
         _("Deadlock-free"));
  CHECK (find_widget (GTK_WIDGET (window), ADW_TYPE_PREFERENCES_ROW, fl_gettext ("Virtual channels")) != NULL,
         "the settings row reads “%s”", fl_gettext ("Virtual channels"));
  CHECK (find_widget (GTK_WIDGET (window), ADW_TYPE_PREFERENCES_ROW, "Virtual channels") == NULL,
         "no settings row is left in English");

  harness_screenshot (window, shot);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "korean", run_locale },
    { "japanese", run_locale },
  };
  gboolean japanese = argc > 1 && g_str_equal (argv[1], "japanese");

  /* What the application's main() does before it starts, with the locale
   * set here rather than left to GTK's start. */
  setlocale (LC_ALL, "");
  flitlab_application_bind_translations ();
  want_locale = japanese ? "ja_JP" : "ko_KR";
  shot = japanese ? "window-ja.png" : "window-ko.png";
  return harness_main (argc, argv, "korean", scenarios, G_N_ELEMENTS (scenarios));
}
