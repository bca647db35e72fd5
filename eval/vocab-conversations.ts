/**
 * Vocabulary for eval/generate-conversations.ts: life events two friends tell each other
 * about, with the turns they produce and the questions a memory should answer about them.
 *
 * Template slots: {A} the speaker it happened to, {B} the friend, {they}/{them}/{their} the
 * speaker's pronouns, plus the event's own slots.
 */

export interface EventDef {
  /** Category: two events of the same category by one speaker make a two-turn question. */
  cat: string;
  slots: Record<string, readonly (string | readonly string[])[]>;
  /** The speaker tells what happened (evidence). */
  share: string[];
  /** The friend reacts (never evidence; often echoes the topic words). */
  react: string[];
  /** The speaker gives a detail (evidence for detail questions). */
  detail: string[];
  /** The friend's follow-up (never evidence). */
  follow: string[];
  /** Questions: which turn is the evidence, and whether it is a "when" question. */
  q: { t: string; ev: 'share' | 'detail'; temporal?: boolean }[];
  /** Question over two events of this category by the same speaker (evidence: the two turns named). */
  agg?: { t: string; ev: 'share' | 'detail' };
  /** Later offhand mentions by the speaker (distractors that share the event's words). */
  callback: string[];
}

export const EVENTS: EventDef[] = [
  {
    cat: 'pet',
    slots: { sp: [['dog', 'beagle'], ['dog', 'greyhound'], ['dog', 'border collie'], ['dog', 'dachshund'], ['dog', 'corgi'], ['cat', 'tabby'], ['cat', 'Maine Coon'], ['cat', 'Siamese'], ['rabbit', 'lop-eared rabbit']], pet: ['Biscuit', 'Pepper', 'Luna', 'Milo', 'Ziggy', 'Olive', 'Waffles', 'Nori', 'Mochi', 'Bruno', 'Poppy', 'Pickle'] },
    share: ['Guess what, I finally adopted a {sp1} from the shelter last weekend!', 'Big news: we brought home a {sp1} on Saturday. The house is chaos now, haha.'],
    react: ['No way! A {sp0}! What did you call it?', 'Aww, you have wanted a {sp0} forever, {A}!', 'Stop it, that is the best news. Pictures please!'],
    detail: ['We named the little one {pet}. Already sleeps at the foot of my bed.', 'The kids picked the name {pet}, and honestly it fits.'],
    follow: ['{pet} is such a cute name!', 'I need to meet {pet} soon.'],
    q: [
      { t: 'What did {A} name {their} {sp0}?', ev: 'detail' },
      { t: 'What kind of {sp0} did {A} adopt?', ev: 'share' },
      { t: 'When did {A} adopt a {sp0}?', ev: 'share', temporal: true },
    ],
    agg: { t: 'What are the names of {A}\'s pets?', ev: 'detail' },
    callback: ['{pet} chewed through another charger today, lol.', 'Sorry, {pet} is going wild at the window again.', '{pet} says hi, by the way.'],
  },
  {
    cat: 'hobby',
    slots: { c: [['pottery', 'a slightly lopsided bowl'], ['watercolour painting', 'a painting of the harbour at sunset'], ['woodworking', 'a small walnut side table'], ['knitting', 'a scarf for my dad'], ['salsa dancing', 'a whole routine without stepping on anyone'], ['rock climbing', 'my first V3 route'], ['guitar', 'a shaky version of a Beatles song'], ['photography', 'a portrait series of my neighbours'], ['calligraphy', 'our wedding invitations'], ['ceramics', 'a set of four mugs']] },
    share: ['I signed up for a {c0} class at the community centre. First session was on Tuesday!', 'So I started {c0} lessons this month, something just for me.'],
    react: ['Ooh, {c0}! How is it going so far?', 'That is so cool. I have always wanted to try {c0}.'],
    detail: ['Last week I finally made {c1}. I was weirdly proud.', 'My best effort so far is {c1}, haha.'],
    follow: ['You are so creative, {A}.', 'Bring it next time, I want to see!'],
    q: [
      { t: 'What class did {A} sign up for?', ev: 'share' },
      { t: 'What did {A} make in {their} {c0} class?', ev: 'detail' },
      { t: 'When did {A} start {c0} lessons?', ev: 'share', temporal: true },
    ],
    agg: { t: 'What hobbies has {A} taken up?', ev: 'share' },
    callback: ['I have {c0} tonight, wish me luck.', 'My hands are still sore from {c0} class.'],
  },
  {
    cat: 'trip',
    slots: { place: ['Lisbon', 'Kyoto', 'Iceland', 'the Scottish Highlands', 'Mexico City', 'Cape Town', 'Vancouver', 'the Amalfi Coast', 'Istanbul', 'Hanoi', 'Marrakech', 'Patagonia'], who: ['my sister', 'my partner', 'my college roommate', 'my mom', 'the kids', 'two friends from work'], hi: ['a sunrise hike up the volcano', 'the street food', 'a boat tour through the sea caves', 'a tiny jazz bar we stumbled into', 'the hot springs', 'seeing whales from the ferry', 'a cooking class with a local family', 'the night market'], days: ['five', 'six', 'eight', 'ten', 'twelve'] },
    share: ['Just got back from {place}! {days} days with {who}.', 'We finally did the {place} trip, {who} and me. Still jet-lagged.'],
    react: ['{place}! Jealous. How was it?', 'Welcome back! Was it everything you hoped?'],
    detail: ['Best part was definitely {hi}. I would go back just for that.', 'Honestly, {hi} made the whole trip.'],
    follow: ['I need to go there someday.', 'Send me your photos!'],
    q: [
      { t: 'Where did {A} travel with {who}?', ev: 'share' },
      { t: 'What was the highlight of {A}\'s trip to {place}?', ev: 'detail' },
      { t: 'When did {A} visit {place}?', ev: 'share', temporal: true },
    ],
    agg: { t: 'Which places has {A} traveled to?', ev: 'share' },
    callback: ['Still dreaming about {place}, honestly.', 'I am making the {place} photo album this weekend.'],
  },
  {
    cat: 'job',
    slots: { co: ['a small climate-tech startup', 'the city library', 'a design agency downtown', 'the regional hospital', 'a game studio', 'the university lab', 'a children\'s museum', 'a solar installation company'], role: ['project coordinator', 'senior designer', 'head nurse', 'data analyst', 'team lead', 'marketing manager', 'lab technician', 'operations manager'] },
    share: ['I got the job! I am starting at {co} next month.', 'So... I accepted an offer from {co}. Handed in my notice today.'],
    react: ['Congratulations!! That is huge, {A}.', 'Wait, really? Tell me everything!'],
    detail: ['I will be a {role}, which is a real step up for me.', 'The title is {role}. Bit nervous, mostly excited.'],
    follow: ['They are lucky to have you.', 'We have to celebrate!'],
    q: [
      { t: 'Where did {A} get a new job?', ev: 'share' },
      { t: 'What is {A}\'s new role?', ev: 'detail' },
      { t: 'When did {A} accept a new job offer?', ev: 'share', temporal: true },
    ],
    callback: ['The new job is intense, but in a good way.', 'Long day at work again.'],
  },
  {
    cat: 'race',
    slots: { dist: ['5K', '10K', 'half marathon', 'marathon', 'trail run'], cause: ['the animal shelter', 'children\'s cancer research', 'the local food bank', 'mental health awareness', 'the hospice that cared for my grandpa', 'clean water projects'] },
    share: ['I ran a {dist} last Sunday! My legs are still mad at me.', 'Did my first {dist} over the weekend, can you believe it?'],
    react: ['Wow, a {dist}! Were you raising money for something?', 'That is incredible. How did it feel at the finish?'],
    detail: ['Yes, it was a fundraiser for {cause}. We raised way more than expected.', 'It was for {cause}, so it meant a lot to me.'],
    follow: ['So proud of you!', 'You are inspiring me to get off the couch.'],
    q: [
      { t: 'What cause did {A} run the {dist} for?', ev: 'detail' },
      { t: 'What race did {A} run?', ev: 'share' },
      { t: 'When did {A} run a {dist}?', ev: 'share', temporal: true },
    ],
    agg: { t: 'What causes has {A} raised money for?', ev: 'detail' },
    callback: ['My knees still remember that {dist}.', 'Thinking about signing up for another race.'],
  },
  {
    cat: 'family',
    slots: { ev: [['my sister\'s wedding', 'sister\'s wedding'], ['my daughter\'s sixth birthday', 'daughter\'s birthday party'], ['my parents\' 40th anniversary', 'parents\' anniversary'], ['my nephew\'s graduation', 'nephew\'s graduation'], ['my grandma\'s 90th birthday', 'grandmother\'s birthday']], d: ['a backyard barbecue that went until midnight', 'a surprise slideshow of old photos', 'a mariachi band my uncle hired', 'a huge homemade cake shaped like a castle', 'everyone dancing in the rain', 'a speech that made the whole room cry'] },
    share: ['This weekend was {ev0}. I am exhausted but so happy.', 'We just had {ev0}. Family chaos, in the best way.'],
    react: ['Aww, how was it?', 'That sounds lovely! Did everything go to plan?'],
    detail: ['The best moment was {d}.', 'We ended up with {d}, totally worth it.'],
    follow: ['Families are the best and the worst, haha.', 'I love that so much.'],
    q: [
      { t: 'What was memorable about {A}\'s {ev1}?', ev: 'detail' },
      { t: 'When was {A}\'s {ev1}?', ev: 'share', temporal: true },
    ],
    agg: { t: 'Which family celebrations has {A} mentioned?', ev: 'share' },
    callback: ['Still recovering from all the family stuff.', 'My mom keeps sending me photos from the party.'],
  },
  {
    cat: 'book',
    slots: { b: [['The Midnight Library', 'Matt Haig'], ['Educated', 'Tara Westover'], ['Project Hail Mary', 'Andy Weir'], ['Braiding Sweetgrass', 'Robin Wall Kimmerer'], ['The Overstory', 'Richard Powers'], ['Circe', 'Madeline Miller'], ['Atomic Habits', 'James Clear'], ['A Gentleman in Moscow', 'Amor Towles'], ['Pachinko', 'Min Jin Lee'], ['Klara and the Sun', 'Kazuo Ishiguro']], l: ['how I spend my mornings', 'regret and second chances', 'what home really means', 'my relationship with my mom', 'being kinder to myself', 'the way we treat forests'] },
    share: ['I just finished "{b0}" by {b1}. Could not put it down.', 'Have you read "{b0}"? I stayed up way too late finishing it.'],
    react: ['No, what is it about?', 'I have heard of it! Worth it?'],
    detail: ['It made me rethink {l}. I will lend you my copy.', 'The part about {l} really stuck with me.'],
    follow: ['Adding it to my list.', 'You always find the best reads, {A}.'],
    q: [
      { t: 'Which book by {b1} did {A} read?', ev: 'share' },
      { t: 'What did "{b0}" make {A} think about?', ev: 'detail' },
    ],
    agg: { t: 'What books has {A} read recently?', ev: 'share' },
    callback: ['I am rereading "{b0}", it hits different the second time.', 'Started a new book last night.'],
  },
  {
    cat: 'home',
    slots: { x: [['repainted the kitchen', 'a deep sage green', 'What colour did {A} paint the kitchen?'], ['redid the bathroom', 'hexagon tiles in dusty pink', 'What tiles did {A} choose for the bathroom?'], ['turned the spare room into a studio', 'a little recording corner with foam panels', 'What did {A} put in the new studio?'], ['built raised garden beds', 'tomatoes, basil and way too much zucchini', 'What is {A} growing in the garden beds?']] },
    share: ['We finally {x0} this weekend. Everything smells like sawdust and paint.', 'Small win: I {x0}! Took three weekends.'],
    react: ['Ooh, show me! How did it turn out?', 'You are so handy, {A}. What did you go with?'],
    detail: ['We went with {x1}. I am obsessed.', 'The result: {x1}. Bold, but I love it.'],
    follow: ['That sounds gorgeous.', 'You should do mine next, haha.'],
    q: [
      { t: '{x2}', ev: 'detail' },
      { t: 'What home project did {A} finish?', ev: 'share' },
      { t: 'When did {A} finish the home project?', ev: 'share', temporal: true },
    ],
    callback: ['Still finding paint on my elbows.', 'The house finally feels like ours.'],
  },
  {
    cat: 'volunteer',
    slots: { v: [['a soup kitchen', 'sorting donations for six hours'], ['the animal rescue', 'walking eight very excited dogs'], ['a literacy program for adults', 'teaching a man to read his first letter'], ['a beach clean-up group', 'hauling 40 kilos of plastic off the beach'], ['the children\'s hospital', 'reading stories to kids on the ward'], ['a refugee welcome centre', 'helping a family fill in housing forms']] },
    share: ['I started volunteering with {v0} on Saturdays.', 'Spent my Saturday volunteering at {v0}. Best decision in a while.'],
    react: ['That is beautiful, {A}. What do you do there?', 'How did you get into that?'],
    detail: ['Last time I ended up {v1}. It was exhausting and wonderful.', 'This week was {v1}. I cried a bit on the drive home.'],
    follow: ['The world needs more people like you.', 'I should join you one day.'],
    q: [
      { t: 'Where does {A} volunteer?', ev: 'share' },
      { t: 'What did {A} do while volunteering?', ev: 'detail' },
      { t: 'When did {A} start volunteering?', ev: 'share', temporal: true },
    ],
    callback: ['Volunteering again this Saturday.', 'The people at {v0} are lovely.'],
  },
  {
    cat: 'concert',
    slots: { band: ['Florence and the Machine', 'Arctic Monkeys', 'Hozier', 'Coldplay', 'a local jazz quartet', 'Billie Eilish', 'Bon Iver', 'Fleetwood Mac tribute band'], venue: ['an open-air festival', 'a tiny club', 'the stadium', 'an old church'], m: ['they played my favourite song as the encore', 'the whole crowd sang along in the rain', 'I got a guitar pick thrown into my hands', 'I lost my voice from screaming'] },
    share: ['Went to see {band} at {venue} on Friday!', 'I finally saw {band} live last night, at {venue}.'],
    react: ['No way, I am so jealous. Were they good?', 'How was the show?'],
    detail: ['Unreal. At one point {m}.', 'Best night of the year: {m}.'],
    follow: ['I have chills just hearing about it.', 'Next time take me with you!'],
    q: [
      { t: 'Which band did {A} see live?', ev: 'share' },
      { t: 'What happened at the {band} concert {A} went to?', ev: 'detail' },
      { t: 'When did {A} go to the {band} concert?', ev: 'share', temporal: true },
    ],
    agg: { t: 'Which concerts has {A} been to?', ev: 'share' },
    callback: ['I still have {band} stuck in my head.', 'Listening to {band} on repeat since the show.'],
  },
  {
    cat: 'cooking',
    slots: { dish: ['my grandma\'s pierogi', 'a proper Thai green curry', 'homemade ramen from scratch', 'feijoada', 'a three-layer lemon cake', 'fresh pasta with brown butter', 'jollof rice', 'bao buns'], tip: ['the secret is toasting the spices first', 'you have to rest the dough overnight', 'it took four tries to get the broth right', 'my aunt walked me through it on video call'] },
    share: ['I made {dish} for the first time yesterday!', 'Cooking project of the week: {dish}.'],
    react: ['Yum! Did it turn out?', 'Save me some next time!'],
    detail: ['It worked! Turns out {tip}.', 'Pretty good, honestly. Lesson learned: {tip}.'],
    follow: ['You need to teach me.', 'Now I am hungry, thanks a lot, haha.'],
    q: [
      { t: 'What dish did {A} cook for the first time?', ev: 'share' },
      { t: 'What tip did {A} learn from making {dish}?', ev: 'detail' },
    ],
    agg: { t: 'What dishes has {A} cooked?', ev: 'share' },
    callback: ['Made {dish} again, it is becoming a tradition.', 'Kitchen is a disaster zone after dinner tonight.'],
  },
  {
    cat: 'health',
    slots: { h: [['sprained my ankle', 'playing five-a-side football', 'ankle'], ['broke my wrist', 'slipping on ice outside the bakery', 'wrist'], ['pulled a muscle in my back', 'moving a sofa up three floors', 'back'], ['had knee surgery', 'an old skiing injury finally catching up', 'knee']], rec: ['six weeks of physio', 'a brace for a month', 'no running until spring', 'daily stretches and a lot of patience'] },
    share: ['Ugh, I {h0} last week.', 'So, bad news: I {h0}. I am fine, just annoyed.'],
    react: ['Oh no! What happened?', 'Ouch, {A}! Are you okay?'],
    detail: ['It happened {h1}. Classic me.', 'Totally my fault: {h1}. Now it is {rec}.'],
    follow: ['Take it easy, please.', 'Let me know if you need anything.'],
    q: [
      { t: 'How did {A} hurt {their} {h2}?', ev: 'detail' },
      { t: 'What injury did {A} have?', ev: 'share' },
      { t: 'When did {A} get injured?', ev: 'share', temporal: true },
    ],
    callback: ['My {h2} is finally feeling better.', 'Physio was brutal today.'],
  },
  {
    cat: 'car',
    slots: { car: ['a used Subaru Outback', 'an electric Kia Niro', 'a little red Fiat 500', 'a Volvo estate', 'a secondhand camper van'], why: ['the old one finally died on the highway', 'we need room for the dog', 'I want to do road trips on weekends', 'my commute got longer'] },
    share: ['We bought {car}! Picked it up on Thursday.', 'Big purchase alert: I got {car}.'],
    react: ['Nice! Why the change?', 'Congrats on the new wheels, {A}!'],
    detail: ['Mostly because {why}.', 'Honestly {why}, so it was time.'],
    follow: ['Road trip when?', 'Makes total sense.'],
    q: [
      { t: 'What car did {A} buy?', ev: 'share' },
      { t: 'Why did {A} get a new car?', ev: 'detail' },
      { t: 'When did {A} buy a car?', ev: 'share', temporal: true },
    ],
    callback: ['Took the new car to the coast, so smooth.', 'Parking is still my nemesis.'],
  },
  {
    cat: 'business',
    slots: { biz: ['an Etsy shop for my ceramics', 'a weekend bakery stall at the farmers market', 'a podcast about local history', 'a dog-walking business', 'a small tutoring service', 'a YouTube channel about budget travel'], first: ['sold out in two hours', 'got my first 100 subscribers', 'landed three regular clients', 'got a shout-out from the local paper'] },
    share: ['I finally launched {biz}!', 'Side hustle news: I started {biz} this month.'],
    react: ['That is so brave, {A}! How is it going?', 'Oh wow, how did the launch go?'],
    detail: ['Better than I hoped: I {first}.', 'First week, I {first}. Still pinching myself.'],
    follow: ['I will tell everyone I know.', 'You deserve this.'],
    q: [
      { t: 'What did {A} launch?', ev: 'share' },
      { t: 'How did the launch of {A}\'s side business go?', ev: 'detail' },
      { t: 'When did {A} launch {their} side project?', ev: 'share', temporal: true },
    ],
    callback: ['Busy week with the side business.', 'Another order came in this morning!'],
  },
  {
    cat: 'study',
    slots: { course: ['a night course in graphic design', 'a master\'s in public health', 'a Spanish course', 'a coding bootcamp', 'an online course in astronomy', 'a certificate in counselling'], why: ['I want to switch careers eventually', 'my grandmother only speaks Spanish', 'I want to work with teenagers', 'I have been curious about it since I was a kid'] },
    share: ['I enrolled in {course}! Classes start next week.', 'Guess who is a student again? I signed up for {course}.'],
    react: ['Whoa, what made you decide that?', 'Back to school! How do you feel?'],
    detail: ['Mainly because {why}.', 'Honestly, {why}.'],
    follow: ['You are going to crush it.', 'Respect, I could never study at night.'],
    q: [
      { t: 'What course did {A} enroll in?', ev: 'share' },
      { t: 'Why did {A} go back to studying?', ev: 'detail' },
      { t: 'When did {A} enroll in {course}?', ev: 'share', temporal: true },
    ],
    callback: ['Exam season is killing me.', 'I have an assignment due tomorrow, send coffee.'],
  },
  {
    cat: 'reunion',
    slots: { friend: ['Rosa', 'Daniel', 'Keiko', 'Marcus', 'Aaliyah', 'Ben', 'Ingrid', 'Tomás'], how: ['from high school', 'from my first job', 'I met backpacking years ago', 'from the choir'], where: ['at a tiny café near the old school', 'at the airport by pure chance', 'at a mutual friend\'s wedding', 'on a hiking trail, of all places'] },
    share: ['I ran into {friend}, my old friend {how}, last week!', 'Caught up with {friend} {how}. Had not seen them in ten years.'],
    react: ['No way! Where?', 'That is wild. How are they doing?'],
    detail: ['We bumped into each other {where}.', 'It was {where}, totally unplanned.'],
    follow: ['Life is funny like that.', 'Old friends are the best.'],
    q: [
      { t: 'Which old friend did {A} reconnect with?', ev: 'share' },
      { t: 'Where did {A} run into {friend}?', ev: 'detail' },
      { t: 'When did {A} see {friend} again?', ev: 'share', temporal: true },
    ],
    callback: ['{friend} and I are texting every day now.', 'Planning dinner with {friend} next month.'],
  },
  {
    cat: 'outdoor',
    slots: { where: ['Yosemite', 'the Lake District', 'the Dolomites', 'Banff', 'a lake two hours north', 'the Blue Mountains'], saw: ['a black bear with two cubs', 'a family of otters', 'the Milky Way with no light pollution', 'a moose right next to the trail', 'an eagle catching a fish'] },
    share: ['We went camping in {where} last weekend.', 'Spent three nights in a tent at {where}!'],
    react: ['How was it? Did you survive the bugs?', 'Camping! You are braver than me, {A}.'],
    detail: ['The best part: we saw {saw}.', 'I will never forget seeing {saw}.'],
    follow: ['That is magical.', 'Okay, now I want to go camping.'],
    q: [
      { t: 'What wildlife did {A} see while camping?', ev: 'detail' },
      { t: 'Where did {A} go camping?', ev: 'share' },
      { t: 'When did {A} go camping in {where}?', ev: 'share', temporal: true },
    ],
    agg: { t: 'Where has {A} been camping?', ev: 'share' },
    callback: ['I still smell like campfire, I swear.', 'Already planning the next camping trip.'],
  },
  {
    cat: 'kids',
    slots: { kid: ['Ella', 'Noah', 'Sophie', 'Leo', 'Maya', 'Sam'], ach: [['got the lead role in the school play', 'the lead in the school play'], ['won the regional spelling bee', 'the spelling bee'], ['scored her first goal for the football team', 'a goal in football'], ['learned to ride a bike without training wheels', 'riding a bike'], ['built a volcano for the science fair', 'a science-fair volcano']], feel: ['I cried in the audience like a baby', 'we went for ice cream to celebrate', 'the grandparents flew in to see it'] },
    share: ['My little {kid} {ach0}!', 'Proud parent moment: {kid} {ach0} this week.'],
    react: ['Oh my gosh, tell {kid} congratulations from me!', 'That is amazing, {A}! You must be so proud.'],
    detail: ['Honestly, {feel}.', 'I am still emotional, {feel}.'],
    follow: ['Kids are the best.', 'Give {kid} a high five from me.'],
    q: [
      { t: 'What did {A}\'s child {kid} achieve?', ev: 'share' },
      { t: 'How did {A} celebrate {kid}\'s success?', ev: 'detail' },
      { t: 'When did {kid} achieve {ach1}?', ev: 'share', temporal: true },
    ],
    callback: ['{kid} has been practising every night.', 'School run was chaos this morning.'],
  },
  {
    cat: 'support',
    slots: { grp: ['a grief support group', 'a support group for new parents', 'an LGBTQ support group', 'a support group for caregivers', 'a sobriety meeting'], felt: ['hearing other people\'s stories made me feel less alone', 'I finally said out loud how hard this year has been', 'someone there gave me advice I really needed', 'I left feeling lighter than I have in months'] },
    share: ['I went to {grp} for the first time yesterday.', 'Yesterday I finally went to {grp}. Took me months to go.'],
    react: ['That takes courage, {A}. How was it?', 'I am really glad you went. How did it feel?'],
    detail: ['It was powerful. {felt}.', 'Honestly? {felt}.'],
    follow: ['I am always here if you want to talk.', 'Proud of you.'],
    q: [
      { t: 'What group did {A} attend?', ev: 'share' },
      { t: 'How did {A} feel after the support group?', ev: 'detail' },
      { t: 'When did {A} go to {grp}?', ev: 'share', temporal: true },
    ],
    callback: ['Going back to the group on Thursday.', 'The group has been good for me.'],
  },
  {
    cat: 'gift',
    slots: { g: ['a vintage record player', 'a handmade quilt', 'a telescope', 'tickets to Paris', 'a custom portrait of my dog', 'a fancy espresso machine'], from: ['my partner', 'my brother', 'my best friend', 'my team at work', 'my in-laws'], occ: ['my birthday', 'our anniversary', 'my going-away party', 'the holidays'] },
    share: ['For {occ} I got {g}! I was speechless.', 'Look what I got for {occ}: {g}.'],
    react: ['What a gift! Who spoiled you?', 'Amazing, {A}! Who was it from?'],
    detail: ['It was from {from}. They planned it for months.', '{from} picked it out, can you believe it?'],
    follow: ['Keep them forever.', 'That is so thoughtful.'],
    q: [
      { t: 'What did {A} get for {occ}?', ev: 'share' },
      { t: 'Who gave {A} {g}?', ev: 'detail' },
    ],
    callback: ['Using my {g} every day.', 'Best present ever, still.'],
  },
  {
    cat: 'award',
    slots: { aw: ['employee of the quarter', 'a teaching excellence award', 'first prize in a photo contest', 'a grant for my research', 'best short film at a local festival'], cel: ['a fancy dinner with my family', 'a quiet night with champagne', 'karaoke with the whole team', 'buying myself a good camera'] },
    share: ['I won {aw}! Still cannot believe it.', 'They announced it today: I got {aw}.'],
    react: ['You deserve it so much, {A}! How are you celebrating?', 'WHAT. Congrats!!'],
    detail: ['We celebrated with {cel}.', 'Celebration was {cel}, perfect.'],
    follow: ['Told you you were amazing.', 'Frame it!'],
    q: [
      { t: 'What award did {A} win?', ev: 'share' },
      { t: 'How did {A} celebrate winning {aw}?', ev: 'detail' },
      { t: 'When did {A} win {aw}?', ev: 'share', temporal: true },
    ],
    callback: ['People still congratulate me on the award, it is sweet.', 'Back to normal life after all the award fuss.'],
  },
  {
    cat: 'tattoo',
    slots: { t: ['a tiny sunflower', 'a compass', 'a line drawing of a mountain', 'my grandmother\'s handwriting', 'a swallow'], where: ['on my wrist', 'on my shoulder', 'behind my ear', 'on my ankle'], mean: ['it reminds me of my late dad', 'it is for the year I finally moved out', 'it is a promise to keep exploring', 'it stands for staying hopeful'] },
    share: ['I got a tattoo: {t} {where}.', 'Okay, do not laugh: I finally got {t} tattooed {where}.'],
    react: ['Ooh, does it mean something?', 'Love it, {A}! Why that design?'],
    detail: ['Yes, {mean}.', 'It matters to me because {mean}.'],
    follow: ['That is really meaningful.', 'I want one now.'],
    q: [
      { t: 'What tattoo did {A} get?', ev: 'share' },
      { t: 'What does {A}\'s tattoo mean?', ev: 'detail' },
      { t: 'When did {A} get a tattoo?', ev: 'share', temporal: true },
    ],
    callback: ['The tattoo healed nicely.', 'Thinking about a second tattoo already.'],
  },
];

export const SMALL_TALK = {
  open: [
    'Hey {B}! It has been a while. How are you?', 'Hi {B}! Good to hear from you.', 'Morning {B}! How was your week?',
    'Hey {B}, long time no talk!', '{B}! Finally, I have so much to tell you.', 'Hi {B}, got a minute to catch up?',
  ],
  reply: [
    'Hey {A}! Good, busy as always. You?', 'Hi {A}! Things are hectic but good.', 'Hey! Doing okay, {A}. Tired, but okay.',
    '{A}! So nice to hear from you. I am good, how about you?', 'Hi hi! Surviving, haha. What is new?',
  ],
  filler: [
    'The weather has been awful here all week.', 'Haha, totally.', 'I know, right?', 'That is so true.', 'Same here, work has been crazy.',
    'Ugh, Mondays.', 'Honestly, I just need a nap.', 'Anyway, enough about me.', 'Ha! Classic.', 'I have had way too much coffee today.',
    'Did you watch the game last night?', 'I keep meaning to call you more often.', 'Right? Time flies.', 'Oh, for sure.',
    'Let me grab a tea, one sec.', 'Sorry, I was on a call all morning.', 'It has been one of those weeks.', 'Lol, yes.',
    'My inbox is a nightmare right now.', 'I am so behind on laundry, it is embarrassing.', 'We ordered pizza again, no regrets.',
    'The traffic this morning was unreal.', 'I think I am finally getting over that cold.', 'My plants are thriving, somehow.',
    'Did you see the news about the storm?', 'I started a new podcast, it is about true crime.', 'I need a vacation from my vacation.',
    'Our internet was down all evening.', 'I tried yoga again, my body said no.', 'The neighbours got a new puppy, it barks at everything.',
    'Can you believe it is already this time of year?', 'I ate way too much at lunch.', 'I have been sleeping terribly.',
    'My sister visited last weekend, it was nice.', 'Everything is so expensive lately.', 'I finally fixed the leaky tap!',
    'The gym was packed tonight.', 'Work drinks on Friday, I might skip.', 'I lost my keys twice this week.', 'It is so hot here today.',
    'Honestly same.', 'Tell me about it.', 'Oh totally, I get that.', 'Ha, that is so you.', 'No kidding!', 'Oh wow.', 'Mm, fair.',
  ],
  close: [
    'Talk soon, {B}! Take care.', 'I have to run, but this was lovely. Bye {B}!', 'Okay, I will let you go. Chat next week?',
    'Love catching up with you, {B}.', 'Good night, {B}!', 'Same time next week?',
  ],
  closeReply: ['Bye {A}! Take care.', 'Talk soon, {A}!', 'Yes! Catch you later.', 'Night, {A}!', 'Absolutely. Bye!'],
  /** Asides people drop into the middle of a message. */
  aside: [
    'The kids have been sick all week so I am running on no sleep.', 'My boss keeps booking meetings over lunch, it drives me nuts.',
    'It rained the whole weekend, of course.', 'I have been trying to drink less coffee, it is not going well.',
    'Our neighbours are renovating again, so it is drilling from 8 am.', 'I finally cleaned out the garage, by the way.',
    'My phone is dying so I might drop off.', 'I am typing this on the bus, sorry for typos.', 'My mom called three times today, lol.',
    'We are trying to eat healthier, emphasis on trying.', 'I binged that whole series you recommended, so good.',
    'Work has been a rollercoaster lately.', 'I slept ten hours last night and still feel tired.',
  ],
  /** Chatty openings and endings wrapped around content turns, as people actually write. */
  lead: [
    'Oh, {B}!', 'Hey {B},', 'You know what?', 'Honestly,', 'Okay so,', 'Thanks for asking!', 'Funny you should ask.', 'Haha,', 'Oh my gosh,',
    'So,', 'Well,', 'Guess what,', 'Ahh,', 'Yeah,', 'Listen,',
  ],
  tail: [
    'How about you?', 'Anyway, what have you been up to?', 'It was a lot, haha.', 'I will send you pictures later.', 'Life is wild, {B}.',
    'Sorry, I am rambling.', 'I keep thinking about it.', 'What do you think?', 'It has been quite a week.', 'Crazy, right?',
    'Have you ever done something like that?', 'I wish you had been there, {B}.', 'Still processing it, honestly.', 'Anyway, tell me about you!',
  ],
};

/** Speaker pairs: [name, pronoun set] x 2. */
export const PAIRS: [[string, 'she' | 'he'], [string, 'she' | 'he']][] = [
  [['Caroline', 'she'], ['Melanie', 'she']], [['Jon', 'he'], ['Gina', 'she']], [['Maria', 'she'], ['John', 'he']],
  [['Joanna', 'she'], ['Nate', 'he']], [['Tim', 'he'], ['Audrey', 'she']], [['Andrew', 'he'], ['Deborah', 'she']],
  [['Evan', 'he'], ['Sam', 'he']], [['Calvin', 'he'], ['Dave', 'he']], [['Jolene', 'she'], ['Fiona', 'she']], [['Priya', 'she'], ['Oliver', 'he']],
];
