/* test-names.c - the core's name tables (states, network types, EAP states
 * and stages) name every value of their enums. */
#include "joind-eap.h"
#include "joind-port.h"
#include "joind-station.h"
#include "test-names.h"

static void
test_station_states(void)
{
	TEST_ASSERT_NAMES(joind_station_state_to_string, JOIND_STATION_STATE_LAST, "unknown");
	g_assert_cmpstr(joind_station_state_to_string(JOIND_STATION_STATE_LAST + 1), ==, "unknown");
}

static void
test_network_types(void)
{
	TEST_ASSERT_NAMES(joind_network_type_to_string, JOIND_NETWORK_TYPE_LAST, "unknown");
	g_assert_cmpstr(joind_network_type_to_string(JOIND_NETWORK_TYPE_LAST + 1), ==, "unknown");
}

static void
test_port_states(void)
{
	TEST_ASSERT_NAMES(joind_port_state_to_string, JOIND_PORT_STATE_LAST, "unknown");
	g_assert_cmpstr(joind_port_state_to_string(JOIND_PORT_STATE_LAST + 1), ==, "unknown");
}

static void
test_eap_states_and_stages(void)
{
	TEST_ASSERT_NAMES(joind_eap_state_to_string, JOIND_EAP_STATE_LAST, "invalid");
	TEST_ASSERT_NAMES(joind_eap_stage_to_string, JOIND_EAP_STAGE_LAST, "invalid");
	g_assert_cmpstr(joind_eap_state_to_string(JOIND_EAP_STATE_LAST + 1), ==, "invalid");
	g_assert_cmpstr(joind_eap_stage_to_string(JOIND_EAP_STAGE_LAST + 1), ==, "invalid");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/names/station-states", test_station_states);
	g_test_add_func("/names/network-types", test_network_types);
	g_test_add_func("/names/port-states", test_port_states);
	g_test_add_func("/names/eap-states-and-stages", test_eap_states_and_stages);
	return g_test_run();
}
