#!/usr/bin/env bash
# make-fixtures.sh - regenerates data/*.eap-config, the eduroam CAT-style
# files the eap-config tests read, with a throw-away PKI (openssl CLI, P-256
# keys): a root and an intermediate CA for the server side, a client
# certificate "alice@example.edu" in PKCS#12 (passphrase "p12-pass"). The
# files follow what cat.eduroam.org and geteduroam hand out. Nothing here
# is secret. Run it from this folder; commit what it writes.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

key() { openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
ca_ext() { printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n'; }

key "$tmp/root.key"
openssl req -new -x509 -sha256 -days 7300 -key "$tmp/root.key" -out "$tmp/root.pem" \
    -subj "/O=Example University/CN=Example University Root CA"
key "$tmp/inter.key"
openssl req -new -sha256 -key "$tmp/inter.key" -out "$tmp/inter.csr" \
    -subj "/O=Example University/CN=Example University RADIUS CA"
ca_ext > "$tmp/ca.ext"
openssl x509 -req -sha256 -days 7300 -in "$tmp/inter.csr" -CA "$tmp/root.pem" \
    -CAkey "$tmp/root.key" -CAcreateserial -extfile "$tmp/ca.ext" -out "$tmp/inter.pem" 2>/dev/null
key "$tmp/client.key"
openssl req -new -sha256 -key "$tmp/client.key" -out "$tmp/client.csr" \
    -subj "/O=Example University/CN=alice@example.edu"
printf 'extendedKeyUsage=clientAuth\n' > "$tmp/client.ext"
openssl x509 -req -sha256 -days 7300 -in "$tmp/client.csr" -CA "$tmp/inter.pem" \
    -CAkey "$tmp/inter.key" -CAcreateserial -extfile "$tmp/client.ext" -out "$tmp/client.pem" 2>/dev/null
openssl pkcs12 -export -in "$tmp/client.pem" -inkey "$tmp/client.key" -certfile "$tmp/inter.pem" \
    -passout pass:p12-pass -out "$tmp/client.p12"

b64() { openssl base64 -in "$1" | tr -d '\n'; }
der() { openssl x509 -in "$1" -outform DER -out "$1.der"; b64 "$1.der"; }
ROOT=$(der "$tmp/root.pem")
INTER=$(der "$tmp/inter.pem")
P12=$(b64 "$tmp/client.p12")

header() {
    cat <<XML
<?xml version="1.0" encoding="utf-8"?>
<EAPIdentityProviderList xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="eap-metadata.xsd">
<EAPIdentityProvider ID="example.edu" namespace="urn:RFC4282:realm" lang="en" version="1">
<ValidUntil>2040-01-01T00:00:00Z</ValidUntil>
<AuthenticationMethods>
XML
}
server() {
    cat <<XML
<ServerSideCredential>
<CA format="X.509" encoding="base64">$ROOT</CA>
<CA format="X.509" encoding="base64">$INTER</CA>
<ServerID>radius1.example.edu</ServerID>
<ServerID>radius2.example.edu</ServerID>
</ServerSideCredential>
XML
}
client() {
    cat <<XML
<ClientSideCredential>
<OuterIdentity>anonymous@example.edu</OuterIdentity>
<InnerIdentitySuffix>example.edu</InnerIdentitySuffix>
<InnerIdentityHint>true</InnerIdentityHint>
</ClientSideCredential>
XML
}
method() { # OUTER INNER-XML
    echo "<AuthenticationMethod>"
    echo "<EAPMethod><Type>$1</Type></EAPMethod>"
    server
    client
    if [[ -n $2 ]]; then echo "<InnerAuthenticationMethod>$2</InnerAuthenticationMethod>"; fi
    echo "</AuthenticationMethod>"
}
footer() { # APPLICABILITY-XML
    cat <<XML
</AuthenticationMethods>
<CredentialApplicability>
$1
</CredentialApplicability>
<ProviderInfo>
<DisplayName lang="en">Example University</DisplayName>
<Description lang="en">Wi-Fi for staff and students</Description>
<ProviderLocation><Longitude>4.9</Longitude><Latitude>52.37</Latitude></ProviderLocation>
<Helpdesk><EmailAddress lang="en">helpdesk@example.edu</EmailAddress></Helpdesk>
</ProviderInfo>
</EAPIdentityProvider>
</EAPIdentityProviderList>
XML
}
wifi='<IEEE80211><SSID>eduroam</SSID><MinRSNProto>CCMP</MinRSNProto></IEEE80211>
<IEEE80211><SSID>eduroam-5G</SSID><MinRSNProto>CCMP</MinRSNProto></IEEE80211>
<IEEE80211><ConsortiumOID>001bc50460</ConsortiumOID></IEEE80211>'
mschapv2='<EAPMethod><Type>26</Type></EAPMethod>'

{ header; method 25 "$mschapv2"; footer "$wifi"; } > data/peap-mschapv2.eap-config
{ header; method 21 '<NonEAPAuthMethod><Type>1</Type></NonEAPAuthMethod>'
  footer '<IEEE80211><SSID>eduroam</SSID></IEEE80211>'; } > data/ttls-pap.eap-config
{ header
  cat <<XML
<AuthenticationMethod>
<EAPMethod><Type>13</Type></EAPMethod>
$(server)
<ClientSideCredential>
<OuterIdentity>anonymous@example.edu</OuterIdentity>
<ClientCertificate format="PKCS12" encoding="base64">$P12</ClientCertificate>
<Passphrase>p12-pass</Passphrase>
</ClientSideCredential>
</AuthenticationMethod>
XML
  footer '<IEEE80211><SSID>eduroam</SSID></IEEE80211>'; } > data/tls-pkcs12.eap-config
# The provider's preference: EAP-FAST (joind has none), TLS without a
# client certificate (joinctl cannot supply one), TTLS/EAP-MSCHAPv2 (the
# one picked), then PEAP.
{ header; method 43 ''; method 13 ''; method 21 "$mschapv2"; method 25 "$mschapv2"
  footer "$wifi"; } > data/several-methods.eap-config
{ header; method 25 "$mschapv2"
  footer '<IEEE80211><SSID>eduroam</SSID></IEEE80211>
<IEEE8023><NetworkID>campus-lan</NetworkID></IEEE8023>'; } > data/wired.eap-config
