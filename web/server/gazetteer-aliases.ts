// Other names of large cities, by GeoNames id, for the map search (web/server/gazetteer.ts). The
// gazetteer package carries one name per city, mostly the English exonym ("Lisbon", "Munich") and
// sometimes the local one ("Köln"); members of a community spread over Berlin, Lisbon and Toronto
// type both. Accents need no entry (the search ignores them). Add a city here when members miss it.
export const aliasesByCityId = new Map<number, readonly string[]>([
  [2267057, ['Lisboa', 'Lissabon', 'Lisbonne']], // Lisbon, PT
  [2867714, ['München', 'Muenchen', 'Munique', 'Múnich']], // Munich, DE
  [2761369, ['Wien', 'Viena', 'Vienne']], // Vienna, AT
  [3169070, ['Roma', 'Rom']], // Rome, IT
  [2886242, ['Cologne', 'Colonia', 'Colónia']], // Köln, DE
  [3067696, ['Praha', 'Prag', 'Praga']], // Prague, CZ
  [756135, ['Warszawa', 'Warschau', 'Varsovia', 'Varsovie', 'Varsóvia']], // Warsaw, PL
  [2618425, ['København', 'Kopenhagen', 'Copenhague', 'Copenhaga']], // Copenhagen, DK
  [2800866, ['Bruxelles', 'Brüssel', 'Brussel', 'Bruselas']], // Brussels, BE
  [264371, ['Athína', 'Athen', 'Atenas', 'Athènes']], // Athens, GR
  [3172394, ['Napoli', 'Neapel', 'Nápoles']], // Naples, IT
  [3173435, ['Milano', 'Mailand', 'Milán', 'Milão']], // Milan, IT
  [3176959, ['Firenze', 'Florenz', 'Florencia']], // Florence, IT
  [3165524, ['Torino']], // Turin, IT
  [3164603, ['Venezia', 'Venedig', 'Venecia', 'Veneza']], // Venice, IT
  [2510911, ['Seville', 'Séville', 'Sevilha']], // Sevilla, ES
  [2747373, ['Den Haag', 'La Haya', 'La Haye', 'Haia']], // The Hague, NL
  [683506, ['București', 'Bukarest', 'Bucarest']], // Bucharest, RO
  [792680, ['Beograd', 'Belgrad', 'Belgrado']], // Belgrade, RS
  [703448, ['Kiev', 'Kiew', 'Kyjiw']], // Kyiv, UA
  [3530597, ['Ciudad de México', 'Mexiko-Stadt']], // Mexico City, MX
  [3094802, ['Cracow', 'Krakau', 'Cracovia']], // Kraków, PL
  [2643743, ['Londres', 'Londra']], // London, GB
  [5128581, ['New York', 'Nueva York', 'Nova Iorque']], // New York City, US
  [524901, ['Moskva', 'Moskau', 'Moscú', 'Moscou']], // Moscow, RU
  [1816670, ['Peking', 'Pekín', 'Pequim']], // Beijing, CN
  [360630, ['Kairo', 'El Cairo', 'Le Caire']], // Cairo, EG
  [2925533, ['Frankfurt']], // Frankfurt am Main, DE
  [1850147, ['Tokio', 'Tóquio']], // Tokyo, JP
  [2996944, ['Lyons', 'Lião']], // Lyon, FR
  [2995469, ['Marseilles', 'Marsella', 'Marselha']], // Marseille, FR
  [2803138, ['Antwerp', 'Anvers', 'Amberes']], // Antwerpen, BE
  [3451190, ['Rio']], // Rio de Janeiro, BR
  [3369157, ['Kapstadt', 'Ciudad del Cabo', 'Le Cap', 'Cidade do Cabo']], // Cape Town, ZA
]);
