// The API's documentation page: Swagger UI on /openapi.json. A file of its own, not an
// inline script, so that the Content-Security-Policy allows scripts from this origin only.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null, // the default would send the API's description to another origin
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
