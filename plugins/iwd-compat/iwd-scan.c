/* iwd-scan.c - Station.Scan() under iwd's semantics (see iwd-scan.h).
 *
 * The model's scan completes when the results are in, and net.joind's
 * Scan() answers then. iwd answers as soon as the radio has the scan and
 * sets Scanning, so iwctl, NetworkManager and ConnMan return at once and
 * take the end from Scanning falling. The model says "scanning" from the
 * moment the request goes to the radio (a busy radio's retries included),
 * which is where this answers. A run lives until the model's scan
 * completes and hangs on the station, which can outlive its iwd Device
 * object (a device that goes away mid-scan).
 */
#include "iwd-scan.h"

#include "iwd-names.h"

typedef struct {
	JoindStation *station;
	JoindCall *call; /* until answered */
	gulong notify_id;
} ScanRun;

static GQuark
scan_run_quark(void)
{
	return g_quark_from_static_string("joind-iwd-scan-run");
}

static void
scan_run_answer(ScanRun *run, gboolean ok, const GError *error)
{
	if (run->call != NULL)
		joind_call_return_result(g_steal_pointer(&run->call), ok, error);
}

static void
scan_run_scanning(JoindStation *station, GParamSpec *pspec, gpointer user_data)
{
	if (joind_station_get_scanning(station))
		scan_run_answer(user_data, TRUE, NULL);
}

/* A scan that failed before it began answers the call with the cause;
 * one that failed later has nothing left to tell (Scanning fell, the
 * networks stay as they were), as with iwd. */
static void
scan_run_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	ScanRun *run = user_data;
	g_autoptr(GError) error = NULL;
	gboolean ok = joind_station_scan_finish(JOIND_STATION(source), result, &error);

	scan_run_answer(run, ok, error);
	g_signal_handler_disconnect(run->station, run->notify_id);
	g_object_set_qdata(G_OBJECT(run->station), scan_run_quark(), NULL);
	g_object_unref(run->station);
	g_free(run);
}

static gboolean
scan_may_start(JoindStation *station, GError **error)
{
	const gchar *busy = NULL;

	if (joind_station_get_state(station) == JOIND_STATION_STATE_CONNECTING)
		busy = "A connection is being set up: scan once it is done.";
	else if (g_object_get_qdata(G_OBJECT(station), scan_run_quark()) != NULL)
		busy = "The scan asked for earlier is still running: Scanning turns false when it "
		       "ends.";
	if (busy == NULL)
		return TRUE;
	g_set_error_literal(error, IWD_ERROR, IWD_ERROR_BUSY, busy);
	return FALSE;
}

void
iwd_station_scan(JoindCall *call, gpointer target, gpointer data)
{
	JoindStation *station = iwd_iface_get_model(target);
	g_autoptr(GError) error = NULL;
	ScanRun *run;

	if (!scan_may_start(station, &error)) {
		joind_call_return_error(call, error);
		return;
	}
	run = g_new0(ScanRun, 1);
	run->station = g_object_ref(station);
	run->call = call;
	run->notify_id =
	        g_signal_connect(station, "notify::scanning", G_CALLBACK(scan_run_scanning), run);
	g_object_set_qdata(G_OBJECT(station), scan_run_quark(), run);
	/* A scan already running is joined: it has begun. */
	if (joind_station_get_scanning(station))
		scan_run_answer(run, TRUE, NULL);
	joind_station_scan(station, NULL, scan_run_done, run);
}
