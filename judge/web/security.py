"""Security headers on every response.

The pages load nothing from elsewhere and run no inline script or style, so
the Content-Security-Policy allows only the app's own files: an injected
`<script>` or `style=` would not run even if escaping ever failed.
"""
from __future__ import annotations

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
}


_HEADER_NAMES = {name.lower() for name in HEADERS}
STRICT_TRANSPORT_SECURITY = ("Strict-Transport-Security", "max-age=31536000")  # over HTTPS only


class SecurityHeaders:
    """WSGI middleware: every answer gets `HEADERS` (those a view did not set
    itself), and over HTTPS Strict-Transport-Security."""

    def __init__(self, app):
        self.app = app
        self._headers = list(HEADERS.items())

    def __call__(self, environ: dict, start_response):
        secure = environ.get("wsgi.url_scheme") in ("https", "wss")

        def start(status, headers, exc_info=None):
            present = {name.lower() for name, _ in headers}
            if present & _HEADER_NAMES:
                headers.extend(h for h in self._headers if h[0].lower() not in present)
            else:
                headers.extend(self._headers)
            if secure and "strict-transport-security" not in present:
                headers.append(STRICT_TRANSPORT_SECURITY)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
