/* pictures-module.c — the table of the module flitlab-pictures (modules.h). */
#include "modules.h"

const CliPicturesModule flitlab_module_pictures = {
    CLI_PICTURES_ABI,
    fl_draw_check_format,
    fl_draw_page_init,
    fl_draw_routing_init,
    fl_draw_export_routing_page,
    fl_draw_flits_init,
    fl_draw_frame_caption,
    fl_draw_export_flits_page,
    fl_draw_animation_init,
    fl_draw_animate,
};
