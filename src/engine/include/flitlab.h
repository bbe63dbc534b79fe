/* flitlab.h — the Flitlab simulation engine, its one public header.
 *
 * Plain C11, no GLib. Every piece of state hangs off a handle the caller owns;
 * there are no mutable globals. Functions that can fail return an FlStatus
 * (FL_OK == 0) and, where the caller passes one, fill an FlError with a
 * one-line message that names the problem. A failing call leaves its inputs
 * untouched and its outputs unset.
 *
 * The API is split by subsystem into the headers under flitlab/ (as libuv's
 * uv.h includes the headers of uv/); include this one.
 *
 * Thread safety: distinct handles may be used from distinct threads. A handle
 * may be read from several threads at once only through the const functions.
 */
#ifndef FLITLAB_H
#define FLITLAB_H

#include "flitlab/errors.h"
#include "flitlab/option.h"
#include "flitlab/topology.h"
#include "flitlab/generators.h"
#include "flitlab/metrics.h"
#include "flitlab/rng.h"
#include "flitlab/stats.h"
#include "flitlab/routing.h"
#include "flitlab/analysis.h"
#include "flitlab/traffic.h"
#include "flitlab/sim.h"
#include "flitlab/message.h"
#include "flitlab/deflect.h"
#include "flitlab/config.h"
#include "flitlab/schedule.h"
#include "flitlab/multicast.h"
#include "flitlab/alltoall.h"
#include "flitlab/module.h"

#endif /* FLITLAB_H */
