/* codes.c - names of IEEE 802.11 status and reason codes (see codes.h). */
#include "codes.h"

const gchar *
wifi_status_to_string(guint16 status, gchar buf[16])
{
	/* IEEE 802.11-2020 Table 9-50, the codes an access point gives most. */
	switch (status) {
	case 0:
		return "success";
	case 1:
		return "unspecified failure";
	case 10:
		return "capabilities not supported";
	case 13:
		return "authentication algorithm not supported";
	case 17:
		return "access point full";
	case 30:
		return "try again later";
	case 31:
		return "robust management frame policy violation";
	case 43:
		return "invalid AKM";
	case 72:
		return "invalid RSN element capabilities";
	case 76:
		return "anti-clogging token required";
	case 77:
		return "finite cyclic group not supported";
	case 123:
		return "unknown password identifier";
	case 126:
		return "SAE hash-to-element";
	default:
		g_snprintf(buf, 16, "status %u", status);
		return buf;
	}
}

/* IEEE 802.11-2020 Table 9-49. */
const gchar *
wifi_reason_to_string(guint16 reason_code)
{
	switch (reason_code) {
	case 1:
		return "unspecified";
	case 2:
		return "previous authentication no longer valid";
	case 3:
		return "the access point is leaving or shutting down";
	case 4:
		return "inactivity";
	case 5:
		return "the access point cannot handle all associated stations";
	case 6:
	case 7:
		return "frame received from a station that is not associated";
	case 8:
		return "the station is leaving";
	case 13:
		return "invalid element";
	case 14:
		return "message integrity code (MIC) failure";
	case 15:
		return "4-way handshake timeout";
	case 16:
		return "group key handshake timeout";
	case 17:
		return "element in 4-way handshake different from (re)association";
	case 18:
		return "invalid group cipher";
	case 19:
		return "invalid pairwise cipher";
	case 20:
		return "invalid AKMP";
	case 21:
		return "unsupported RSNE version";
	case 22:
		return "invalid RSNE capabilities";
	case 23:
		return "IEEE 802.1X authentication failed";
	case 24:
		return "cipher suite rejected by security policy";
	default:
		return "reason not known to joind";
	}
}
