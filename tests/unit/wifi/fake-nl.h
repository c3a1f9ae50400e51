/* fake-nl.h - a WifiNl whose kernel is the unit test.
 *
 * The rooms under test send their commands as usual; each becomes a
 * FakeNlRequest the test inspects (its command and attributes) and then
 * answers: reply messages, an ACK or an errno, when it chooses. Events are
 * built with wifi_test_msg_new() and handed to the room under test (or to
 * the listeners with fake_nl_event()). Nothing runs unless the test says.
 */
#pragma once

#include "nl-test-util.h"

typedef struct _FakeNl FakeNl;

typedef struct {
	guint id;
	guint8 cmd;
	struct nl_msg *msg;
	struct nlattr *attrs[NL80211_ATTR_MAX + 1]; /* point into msg */
	WifiNlReplyFunc reply;
	WifiNlDoneFunc done;
	gpointer user_data;
	GDestroyNotify destroy;
} FakeNlRequest;

/* The WifiNl to give the rooms; *fake stays valid until it is freed. */
WifiNl *fake_nl_new(FakeNl **fake);

/* Requests sent and not yet answered or cancelled. */
guint fake_nl_n_pending(FakeNl *fake);
/* The oldest pending request of cmd, or NULL. */
FakeNlRequest *fake_nl_find(FakeNl *fake, guint8 cmd);
/* Like fake_nl_find(), failing the test when there is none. */
FakeNlRequest *fake_nl_expect(FakeNl *fake, guint8 cmd);
/* How many requests of cmd were ever sent (answered or not). */
guint fake_nl_n_sent(FakeNl *fake, guint8 cmd);
/* Forgets the counts of fake_nl_n_sent(). */
void fake_nl_clear_sent(FakeNl *fake);

/* One reply message of req (a dump entry, or the answer to a GET); consumed. */
void fake_nl_reply(FakeNl *fake, FakeNlRequest *req, struct nl_msg *reply);
/* Ends req with error (0: ACK / end of dump); req is freed. */
void fake_nl_done(FakeNl *fake, FakeNlRequest *req, int error);
/* Ends every pending request of cmd with error; how many there were. */
guint fake_nl_done_all(FakeNl *fake, guint8 cmd, int error);
/* Hands an event (consumed) to the WifiNl's listeners. */
void fake_nl_event(WifiNl *nl, struct nl_msg *event);
/* An event of cmd for interface ifindex, for fake_nl_event(). */
struct nl_msg *fake_nl_iface_event_new(guint8 cmd, guint32 ifindex);
