// The "submit a place" form's map: a click on it fills the latitude and longitude fields (and
// typing coordinates moves the marker). The fields stay the form's real input; the map only helps.
(() => {
  const dataElement = document.getElementById('page-data');
  const mapElement = document.getElementById('picker-map');
  const latInput = document.getElementById('place-lat');
  const lngInput = document.getElementById('place-lng');
  if (!dataElement || !mapElement || !latInput || !lngInput || typeof L === 'undefined') return;
  const data = JSON.parse(dataElement.textContent || '{}');

  mapElement.hidden = false;
  for (const hint of document.querySelectorAll('.js-only')) hint.hidden = false;
  const map = L.map(mapElement);
  const attribution = document.createElement('span');
  attribution.textContent = data.attribution || '';
  L.tileLayer(data.tileUrl, { attribution: attribution.innerHTML, maxZoom: 19 }).addTo(map);
  let marker = null;

  const typed = fromInputs();
  if (typed) {
    map.setView(typed, 15);
    place(typed);
  } else {
    map.setView([30, 10], 2);
  }

  map.on('click', (event) => {
    const lat = Number(event.latlng.lat.toFixed(6));
    const lng = Number(L.Util.wrapNum(event.latlng.lng, [-180, 180], true).toFixed(6));
    latInput.value = String(lat);
    lngInput.value = String(lng);
    place([lat, lng]);
  });

  for (const input of [latInput, lngInput]) {
    input.addEventListener('input', () => {
      const point = fromInputs();
      if (point) {
        place(point);
        map.panTo(point);
      }
    });
  }

  function fromInputs() {
    if (latInput.value === '' || lngInput.value === '') return null;
    const lat = Number(latInput.value);
    const lng = Number(lngInput.value);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
    return [lat, lng];
  }

  function place(point) {
    if (marker) marker.setLatLng(point);
    else marker = L.marker(point, { alt: data.markerLabel || '', keyboard: false }).addTo(map);
  }
})();
