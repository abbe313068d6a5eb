// Dates on events pages: the server writes them in UTC; here they are shown in the visitor's
// own time zone. Forms with dates get the browser's zone preselected (only while the visitor has
// not chosen one: data-auto-zone), and their prefilled dates moved from UTC into that zone.
(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  for (const element of document.querySelectorAll('time[data-local]')) {
    const date = new Date(element.getAttribute('datetime'));
    if (!Number.isNaN(date.getTime())) element.textContent = format.format(date);
  }

  const pad = (n) => String(n).padStart(2, '0');
  const localValue = (date) =>
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  for (const select of document.querySelectorAll('select[data-time-zone][data-auto-zone]')) {
    if (!zone || ![...select.options].some((option) => option.value === zone)) continue;
    select.value = zone;
    const form = select.form;
    if (!form) continue;
    for (const input of form.querySelectorAll('input[type="datetime-local"][data-utc]')) {
      const date = new Date(input.dataset.utc);
      if (!Number.isNaN(date.getTime())) input.value = localValue(date);
    }
  }
})();
