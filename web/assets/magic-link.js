// The magic-link landing page: submits the sign-in form at once (POST, so a mail scanner that
// opens the link never spends the single-use token). Without JavaScript the button does it.
{
  const form = document.getElementById('magic-link-form');
  if (form) form.requestSubmit();
}
