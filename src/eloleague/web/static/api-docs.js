// Starts the vendored Swagger UI on /api/v1/docs. A file rather than an inline script: the
// site's Content-Security-Policy allows scripts from the site only (docs/web.md, "Headers").
window.ui = SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
