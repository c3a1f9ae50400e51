/* codes.c - names of IEEE 802.11 status codes (see codes.h). */
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
